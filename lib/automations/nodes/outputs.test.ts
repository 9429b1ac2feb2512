import { describe, expect, it } from "vitest";
import { cutOutput, cutReach, declaredOutput, jsonBytes } from "./outputs";

const why = { note: "The answer was larger than 1 KB; only part of it was kept.", reason: "too big" };

describe("cutOutput", () => {
  it("keeps an output that fits as it is", () => {
    const output = { status: 200, body: { points: 120 } };
    expect(cutOutput(output, 1_000, why)).toBe(output);
  });

  it("keeps members in order while they fit, the first that does not in part, and lists what lost members", () => {
    const output = {
      status: 200,
      headers: { "content-type": "application/json" },
      body: { id: "list-7", items: Array.from({ length: 100 }, (_, i) => ({ sku: `sku-${i}` })), after: 1 },
      durationMs: 12,
    };
    const kept = cutOutput(output, 1_000, why);
    expect(jsonBytes(kept)).toBeLessThanOrEqual(1_000);
    expect(kept).toMatchObject({ status: 200, headers: output.headers, body: { id: "list-7" } });
    const body = kept.body as { items: unknown[]; after?: number };
    expect(body.items.length).toBeGreaterThan(3);
    expect(body.items).toEqual(output.body.items.slice(0, body.items.length));
    // What came after the cut is cut too.
    expect(body).not.toHaveProperty("after");
    expect(kept).not.toHaveProperty("durationMs");
    expect(kept.truncated).toEqual({ paths: ["body.items.*", "body.*", "*"], ...why });
  });

  it("cuts a single long text whole rather than in part", () => {
    const kept = cutOutput({ status: 200, bodyExcerpt: "x".repeat(5_000) }, 1_000, why);
    expect(kept).toEqual({ status: 200, truncated: { paths: ["*"], ...why } });
  });
});

describe("cutReach", () => {
  const kept = cutOutput(
    { body: { id: "list-7", items: Array.from({ length: 100 }, (_, i) => ({ sku: `sku-${i}` })) }, tail: 1 },
    1_000,
    why,
  );

  it("lets a read of the kept part through", () => {
    expect(cutReach(kept, ["body", "id"])).toBe(false);
    expect(cutReach(kept, ["body", "items", "0", "sku"])).toBe(false);
  });

  it("stops a read of a container that lost members, of what holds it, and of a member that is gone", () => {
    expect(cutReach(kept, ["body", "items"])).toBe(true);
    expect(cutReach(kept, ["body"])).toBe(true);
    expect(cutReach(kept, [])).toBe(true);
    expect(cutReach(kept, ["body", "items", "99"])).toBe(true);
    expect(cutReach(kept, ["tail"])).toBe(true);
  });

  it("says nothing of an output that was not cut", () => {
    expect(cutReach({ body: {} }, ["body", "nope"])).toBe(false);
  });
});

describe("declaredOutput", () => {
  const http = [
    { path: "status", label: "status" },
    { path: "headers.*", label: "a header" },
    { path: "body.*", label: "a field" },
  ];

  it("accepts a declared path, anything under a `.*` one, and what holds one", () => {
    for (const path of [
      "status",
      "headers.content-type",
      "body.points",
      "body.member.since",
      "body",
      "headers",
      "",
    ])
      expect(declaredOutput(http, path), path).toBe(true);
  });

  it("refuses what is not declared", () => {
    for (const path of ["bodyy", "status.code", "points"])
      expect(declaredOutput(http, path), path).toBe(false);
    expect(declaredOutput([], "")).toBe(false);
  });

  it("takes `*` as anything", () => {
    expect(declaredOutput([{ path: "*", label: "what it returned" }], "score.total")).toBe(true);
  });
});
