import { describe, expect, it } from "vitest";
import { audienceSchema } from "@/lib/automations/nodes/triggers/triggers";
import {
  AUDIENCE_FIELDS,
  audienceFromDraft,
  describeAudience,
  draftFromAudience,
  EMPTY_AUDIENCE_DRAFT,
} from "./audience-form";

describe("the audience form", () => {
  it("lists every field the engine filters on, in the merchant's words", () => {
    expect(AUDIENCE_FIELDS.map((f) => f.field).sort()).toEqual(Object.keys(audienceSchema.shape).sort());
    expect(AUDIENCE_FIELDS.map((f) => f.label)).toEqual([
      "Accepts marketing",
      "Orders",
      "Total spent",
      "Has any of these tags",
      "Has none of these tags",
      "Customer since (days)",
    ]);
  });

  it("an empty form is every customer: {}", () => {
    expect(audienceFromDraft(EMPTY_AUDIENCE_DRAFT)).toEqual({ json: {}, audience: {}, errors: {} });
    expect(describeAudience({})).toBe("Every customer");
  });

  it("accepts marketing and at least 2 orders is the JSON the engine reads", () => {
    const { json, audience, errors } = audienceFromDraft({
      ...EMPTY_AUDIENCE_DRAFT,
      acceptsMarketing: "yes",
      minOrdersCount: "2",
    });
    expect(errors).toEqual({});
    expect(json).toEqual({ acceptsMarketing: true, minOrdersCount: 2 });
    expect(audience).toEqual({ acceptsMarketing: true, minOrdersCount: 2 });
    expect(audienceSchema.safeParse(audience).success).toBe(true);
    expect(describeAudience(audience)).toBe("Customers who accept marketing, with at least 2 orders");
  });

  it("fills every field from the inputs: tags split on commas, numbers read, 'no' is false", () => {
    const { audience } = audienceFromDraft({
      acceptsMarketing: "no",
      minOrdersCount: " 3 ",
      minTotalSpent: "99.5",
      tagsInclude: "vip, wholesale,, vip",
      tagsExclude: "banned",
      createdWithinDays: "30",
    });
    expect(audience).toEqual({
      acceptsMarketing: false,
      minOrdersCount: 3,
      minTotalSpent: 99.5,
      tagsInclude: ["vip", "wholesale"],
      tagsExclude: ["banned"],
      createdWithinDays: 30,
    });
  });

  it("round-trips a stored audience through the inputs", () => {
    const stored = { tagsInclude: ["vip"], acceptsMarketing: false, minTotalSpent: 10, createdWithinDays: 7 };
    expect(audienceFromDraft(draftFromAudience(stored))).toEqual({
      json: stored,
      audience: stored,
      errors: {},
    });
    expect(draftFromAudience("not an audience")).toEqual(EMPTY_AUDIENCE_DRAFT);
  });

  it("names what is wrong with a field; the stored JSON keeps it (so the step reports it), the count uses the rest", () => {
    const { json, audience, errors } = audienceFromDraft({
      ...EMPTY_AUDIENCE_DRAFT,
      acceptsMarketing: "yes",
      minOrdersCount: "1.5",
      minTotalSpent: "-3",
      createdWithinDays: "soon",
    });
    expect(errors).toEqual({
      minOrdersCount: "must be a whole number",
      minTotalSpent: "cannot be negative",
      createdWithinDays: "must be a number",
    });
    expect(audience).toEqual({ acceptsMarketing: true });
    expect(json).toEqual({
      acceptsMarketing: true,
      minOrdersCount: 1.5,
      minTotalSpent: -3,
      createdWithinDays: "soon",
    });
    expect(audienceSchema.safeParse(json).success).toBe(false);
  });
});
