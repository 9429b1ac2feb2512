import { describe, expect, test } from "vitest";
import { fieldCondition } from "./field";
import { hasTagCondition } from "./has-tag";
import type { FieldConditionParams } from "./field";

const ctx = (
  entity: Record<string, unknown> | null,
  steps: Record<string, Record<string, unknown>> = {},
) => ({
  entity,
  event: { type: "order.paid", payload: {} },
  steps,
  subject: "the order",
  timeZone: "Europe/Berlin",
});

/** Decides the condition as a run does, then says why, as a run records it. */
function why(params: FieldConditionParams, entity: Record<string, unknown> | null, steps = {}) {
  const parsed = fieldCondition.params.parse(params);
  const result = fieldCondition.evaluate(parsed, ctx(entity, steps));
  return { result, ...fieldCondition.explain(parsed, ctx(entity, steps), result) };
}

describe("why a field condition went its way", () => {
  test.each([
    [{ path: "total", operator: "gt", value: 100 }, { total: 80 }, false, "Total is 80, not more than 100"],
    [{ path: "total", operator: "gt", value: 100 }, { total: 120 }, true, "Total is 120, more than 100"],
    [{ path: "total", operator: "gte", value: 100 }, { total: 99 }, false, "Total is 99, less than 100"],
    [
      { path: "total", operator: "lt", value: 100 },
      { total: "250" },
      false,
      "Total is '250', not less than 100",
    ],
    [{ path: "total", operator: "lte", value: 100 }, { total: 100 }, true, "Total is 100, at most 100"],
    [
      { path: "status", operator: "eq", value: "paid" },
      { status: "pending" },
      false,
      "Status is 'pending', not 'paid'",
    ],
    [
      { path: "status", operator: "neq", value: "paid" },
      { status: "paid" },
      false,
      "Status is 'paid', the value it must not be",
    ],
    [
      { path: "email", operator: "contains", value: "@shop" },
      { email: "a@x.com" },
      false,
      "Email is 'a@x.com', which does not contain '@shop'",
    ],
    [
      { path: "status", operator: "in", value: ["paid", "fulfilled"] },
      { status: "paid" },
      true,
      "Status is 'paid', one of 'paid', 'fulfilled'",
    ],
    [{ path: "email", operator: "exists" }, { email: "a@x.com" }, true, "Email is set: 'a@x.com'"],
    [{ path: "email", operator: "not_exists" }, {}, true, "Email is missing"],
    [
      { path: "total", operator: "gt", value: 100 },
      { total: "lots" },
      false,
      "Total is 'lots', which cannot be compared with 100",
    ],
  ] as const)("%o on %o", (params, entity, result, text) => {
    const said = why(params as FieldConditionParams, entity);
    expect(said.result).toBe(result);
    expect(said.text).toBe(text);
  });

  test("a missing field says missing, keeps no value and names what it was compared with", () => {
    const said = why({ path: "shippingAddress.countryCode", operator: "eq", value: "DE" }, { total: 5 });
    expect(said).toMatchObject({ result: false, missing: true, operator: "eq", compared: "DE" });
    expect(said).not.toHaveProperty("value");
    expect(said.text).toMatch(/ is missing$/);
  });

  test("an earlier step's output is read as the condition reads it; no record is said so", () => {
    expect(
      why({ path: "steps.code1.score", operator: "gte", value: 5 }, null, { code1: { score: 7 } }).text,
    ).toBe("Score from step 'code1' is 7, at least 5");
    expect(why({ path: "total", operator: "gt", value: 1 }, null)).toMatchObject({
      missing: true,
      text: "There is no record to check",
    });
  });

  test("a time reads in the shop's zone, and a long text is cut", () => {
    const at = why(
      { path: "createdAt", operator: "gt", value: "2026-01-01T00:00:00Z" },
      { createdAt: "2026-06-01T10:00:00Z" },
    );
    expect(at.text).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const long = why({ path: "note", operator: "eq", value: "x" }, { note: "y".repeat(500) });
    expect(String(long.value).length).toBeLessThanOrEqual(200);
    expect(long.text.length).toBeLessThan(140);
  });
});

describe("why a tag condition went its way", () => {
  test("names the tag and the record", () => {
    const params = hasTagCondition.params.parse({ tag: "vip" });
    const entity = { tags: ["new"] };
    const result = hasTagCondition.evaluate(params, ctx(entity));
    expect(hasTagCondition.explain(params, ctx(entity), result)).toEqual({
      operator: "has_tag",
      compared: "vip",
      missing: false,
      value: ["new"],
      text: "Tag 'vip' is not on the order",
    });
  });
});
