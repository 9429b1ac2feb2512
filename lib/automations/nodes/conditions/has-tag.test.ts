import { describe, expect, it } from "vitest";
import type { EvaluationContext } from "../types";
import { hasTagCondition } from "./has-tag";

const ctx = (entity: EvaluationContext["entity"]): EvaluationContext => ({
  entity,
  event: { type: "order.paid", payload: {} },
  steps: {},
});

describe("has_tag", () => {
  it("is true when the record has the tag, whatever its case", () => {
    expect(hasTagCondition.evaluate({ tag: "vip" }, ctx({ tags: ["VIP", "new"] }))).toBe(true);
    expect(hasTagCondition.evaluate({ tag: "Gold" }, ctx({ tags: [" gold "] }))).toBe(true);
  });

  it("is false without the tag, without tags, or without a record", () => {
    expect(hasTagCondition.evaluate({ tag: "vip" }, ctx({ tags: ["vip-2"] }))).toBe(false);
    expect(hasTagCondition.evaluate({ tag: "vip" }, ctx({}))).toBe(false);
    expect(hasTagCondition.evaluate({ tag: "vip" }, ctx({ tags: "vip" }))).toBe(false);
    expect(hasTagCondition.evaluate({ tag: "vip" }, ctx(null))).toBe(false);
  });

  it("reads as a sentence and wants a tag", () => {
    expect(hasTagCondition.summarise({ tag: "vip" })).toBe("Has tag 'vip'");
    expect(hasTagCondition.params.safeParse({ tag: "" }).error?.issues[0]?.message).toBe("cannot be empty");
  });
});
