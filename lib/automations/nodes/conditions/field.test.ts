import { describe, expect, it } from "vitest";
import type { EvaluationContext } from "../types";
import {
  compareField,
  describeFieldCondition,
  fieldCondition,
  fieldConditionDomainIssues,
  type FieldConditionParams,
} from "./field";

const order = {
  total: 120,
  status: "paid",
  email: "Ada@Example.com",
  tags: ["VIP", "wholesale"],
  createdAt: "2026-03-01T10:00:00+01:00",
  lineItems: [{ sku: "A-1", price: 10 }],
  totalText: "120",
  customerId: null,
  acceptsMarketing: true,
};

function check(params: FieldConditionParams, entity: EvaluationContext["entity"] = order): boolean {
  return fieldCondition.evaluate(params, { entity, event: { type: "order.paid", payload: {} }, steps: {} });
}

describe("field condition operators", () => {
  it("eq / neq, with numeric coercion between a number and a numeric string", () => {
    expect(check({ path: "status", operator: "eq", value: "paid" })).toBe(true);
    expect(check({ path: "status", operator: "eq", value: "Paid" })).toBe(false);
    expect(check({ path: "total", operator: "eq", value: "120" })).toBe(true);
    expect(check({ path: "totalText", operator: "eq", value: 120 })).toBe(true);
    expect(check({ path: "total", operator: "eq", value: "120abc" })).toBe(false);
    expect(check({ path: "acceptsMarketing", operator: "eq", value: true })).toBe(true);
    expect(check({ path: "acceptsMarketing", operator: "eq", value: "true" })).toBe(true);
    expect(check({ path: "status", operator: "neq", value: "pending" })).toBe(true);
    expect(check({ path: "status", operator: "neq", value: "paid" })).toBe(false);
  });

  it("a missing field equals nothing", () => {
    expect(check({ path: "nope", operator: "eq", value: "" })).toBe(false);
    expect(check({ path: "customerId", operator: "eq", value: "null" })).toBe(false);
    expect(check({ path: "nope", operator: "neq", value: "x" })).toBe(true);
    expect(check({ path: "total", operator: "eq", value: 120 }, null)).toBe(false);
  });

  it("gt / gte / lt / lte on numbers", () => {
    expect(check({ path: "total", operator: "gt", value: 100 })).toBe(true);
    expect(check({ path: "total", operator: "gt", value: 120 })).toBe(false);
    expect(check({ path: "total", operator: "gte", value: 120 })).toBe(true);
    expect(check({ path: "total", operator: "lt", value: "200" })).toBe(true);
    expect(check({ path: "total", operator: "lte", value: 119.99 })).toBe(false);
    expect(check({ path: "lineItems.0.price", operator: "lte", value: 10 })).toBe(true);
  });

  it("orders dates as instants, whatever their offset", () => {
    // 10:00+01:00 is 09:00Z.
    expect(check({ path: "createdAt", operator: "gt", value: "2026-03-01T08:59:59Z" })).toBe(true);
    expect(check({ path: "createdAt", operator: "lt", value: "2026-03-01T09:00:01Z" })).toBe(true);
    expect(check({ path: "createdAt", operator: "gte", value: "2026-03-01T09:00:00.000Z" })).toBe(true);
    expect(check({ path: "createdAt", operator: "eq", value: "2026-03-01T09:00:00Z" })).toBe(true);
    expect(check({ path: "createdAt", operator: "gt", value: "2026-03-02" })).toBe(false);
  });

  it("cannot order what is not a number or a date", () => {
    expect(check({ path: "status", operator: "gt", value: "a" })).toBe(false);
    expect(check({ path: "status", operator: "lt", value: "z" })).toBe(false);
    expect(check({ path: "nope", operator: "lt", value: 5 })).toBe(false);
    expect(check({ path: "total", operator: "gt", value: "lots" })).toBe(false);
  });

  it("contains: case-insensitive substring on text, membership on lists", () => {
    expect(check({ path: "email", operator: "contains", value: "example.COM" })).toBe(true);
    expect(check({ path: "email", operator: "contains", value: "gmail" })).toBe(false);
    expect(check({ path: "tags", operator: "contains", value: "vip" })).toBe(true);
    expect(check({ path: "tags", operator: "contains", value: "vi" })).toBe(false);
    expect(check({ path: "tags", operator: "contains", value: ["gold", "wholesale"] })).toBe(true);
    expect(check({ path: "total", operator: "contains", value: "1" })).toBe(false);
    expect(check({ path: "nope", operator: "contains", value: "x" })).toBe(false);
  });

  it("not_contains is the opposite, and true for a missing field", () => {
    expect(check({ path: "email", operator: "not_contains", value: "gmail" })).toBe(true);
    expect(check({ path: "tags", operator: "not_contains", value: "VIP" })).toBe(false);
    expect(check({ path: "nope", operator: "not_contains", value: "x" })).toBe(true);
  });

  it("in: the field is one of a list or of comma-separated text", () => {
    expect(check({ path: "status", operator: "in", value: ["paid", "fulfilled"] })).toBe(true);
    expect(check({ path: "status", operator: "in", value: "pending, paid" })).toBe(true);
    expect(check({ path: "status", operator: "in", value: "pending,refunded" })).toBe(false);
    expect(check({ path: "total", operator: "in", value: [100, "120"] })).toBe(true);
    expect(check({ path: "tags", operator: "in", value: ["wholesale", "b2b"] })).toBe(true);
    expect(check({ path: "nope", operator: "in", value: ["x"] })).toBe(false);
  });

  it("exists / not_exists: set means neither missing nor null", () => {
    expect(check({ path: "email", operator: "exists" })).toBe(true);
    expect(check({ path: "customerId", operator: "exists" })).toBe(false);
    expect(check({ path: "nope", operator: "exists" })).toBe(false);
    expect(check({ path: "customerId", operator: "not_exists" })).toBe(true);
    expect(check({ path: "total", operator: "not_exists" })).toBe(false);
    expect(compareField("exists", 0, undefined)).toBe(true);
    expect(compareField("exists", "", undefined)).toBe(true);
  });

  it("is false for a comparison without a value", () => {
    expect(compareField("eq", "x", undefined)).toBe(false);
  });
});

describe("field condition params", () => {
  const issues = (input: unknown) =>
    fieldCondition.params.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ??
    [];

  it("wants a field, an operator and (except for exists) a value", () => {
    expect(issues({ path: "total", operator: "gt", value: 100 })).toEqual([]);
    expect(issues({ path: "email", operator: "exists" })).toEqual([]);
    expect(issues({ path: "total", operator: "gt" })).toEqual(["value: is required for this comparison"]);
    expect(issues({ path: "", operator: "eq", value: 1 })).toEqual([
      "path: is empty; choose a field such as total",
    ]);
    expect(issues({ path: "total", operator: "bigger", value: 1 })).toEqual([
      "operator: must be one of eq, neq, gt, gte, lt, lte, contains, not_contains, in, exists, not_exists",
    ]);
    expect(issues({ path: "a b", operator: "eq", value: 1 })).toEqual([
      "path: must be a field such as total, lineItems.0.sku or lineItems.*.sku",
    ]);
    expect(issues({ path: "total", operator: "gt", value: [1, 2] })).toEqual([
      "value: can only be a list with 'is one of' or 'contains'",
    ]);
    expect(issues({ path: "total", operator: "gt", value: true })).toEqual([
      "value: must be a number or a date to compare with",
    ]);
    expect(issues({ path: "total", operator: "eq", value: { a: 1 } })).toEqual([
      "value: must be text, a number, true or false, or a list",
    ]);
  });
});

describe("field condition summary", () => {
  it("reads as a sentence, the field named as the merchant reads it", () => {
    expect(describeFieldCondition({ path: "total", operator: "gt", value: 100 })).toBe(
      "Total is greater than 100",
    );
    expect(describeFieldCondition({ path: "status", operator: "eq", value: "paid" })).toBe(
      "Status is 'paid'",
    );
    expect(describeFieldCondition({ path: "status", operator: "in", value: "paid, fulfilled" })).toBe(
      "Status is one of 'paid', 'fulfilled'",
    );
    expect(describeFieldCondition({ path: "email", operator: "exists" })).toBe("Email is set");
    expect(describeFieldCondition({ path: "tags", operator: "contains", value: ["a", "b"] })).toBe(
      "Tags contains 'a' or 'b'",
    );
  });

  it.each([
    ["customerId", "Customer is set"],
    ["createdAt", "Created is set"],
    ["lineItems.0.sku", "First line item › SKU is set"],
    ["steps.code1.score", "Score from step 'code1' is set"],
    ["steps.code1", "What step 'code1' returned is set"],
  ])("names %s in words", (path, sentence) => {
    expect(describeFieldCondition({ path, operator: "exists" })).toBe(sentence);
  });
});

describe("field condition against a domain", () => {
  it("names a path that is not a field of the record", () => {
    expect(fieldConditionDomainIssues({ path: "inventory", operator: "lt", value: 5 }, "order")).toEqual([
      "'inventory' is not a field of an order.",
    ]);
    expect(fieldConditionDomainIssues({ path: "inventory", operator: "lt", value: 5 }, "product")).toEqual(
      [],
    );
    expect(
      fieldConditionDomainIssues({ path: "lineItems.2.sku", operator: "eq", value: "A" }, "order"),
    ).toEqual([]);
  });

  it("names a value an enum field never has", () => {
    expect(fieldConditionDomainIssues({ path: "status", operator: "eq", value: "shipped" }, "order")).toEqual(
      [
        "'shipped' is never the status of an order; use one of pending, paid, fulfilled, cancelled, refunded.",
      ],
    );
    expect(
      fieldConditionDomainIssues({ path: "status", operator: "in", value: "paid, fulfilled" }, "order"),
    ).toEqual([]);
  });
});

describe("field condition on lists by name and by any item (issue 49)", () => {
  const withNotes = (notes: { name: string; value: string }[]) => ({
    ...order,
    lineItems: [
      { sku: "MUG", quantity: 1 },
      { sku: "CAP", quantity: 2 },
    ],
    attributes: { note_attributes: notes },
  });
  const gift: FieldConditionParams = {
    path: "attributes.note_attributes[name=gift_note].value",
    operator: "eq",
    value: "Happy birthday",
  };

  it("a note attribute by name matches whatever its position", () => {
    const first = withNotes([
      { name: "gift_note", value: "Happy birthday" },
      { name: "delivery_window", value: "evening" },
    ]);
    const last = withNotes([
      { name: "delivery_window", value: "evening" },
      { name: "gift_note", value: "Happy birthday" },
    ]);
    expect(check(gift, first)).toBe(true);
    expect(check(gift, last)).toBe(true);
    expect(check(gift, withNotes([{ name: "delivery_window", value: "Happy birthday" }]))).toBe(false);
    expect(check({ ...gift, operator: "not_exists" }, withNotes([]))).toBe(true);
    expect(fieldCondition.params.safeParse(gift).success).toBe(true);
    expect(fieldConditionDomainIssues(gift, "order")).toEqual([]);
    expect(describeFieldCondition(gift)).toBe(`Note attribute "gift_note" is 'Happy birthday'`);
  });

  it("any line item: one item's value is enough; 'is not' holds when no item's is", () => {
    const any = (operator: FieldConditionParams["operator"], value?: string | number) =>
      check({ path: "lineItems.*.sku", operator, value }, withNotes([]));
    expect(any("eq", "CAP")).toBe(true);
    expect(any("eq", "HAT")).toBe(false);
    expect(any("neq", "CAP")).toBe(false);
    expect(any("neq", "HAT")).toBe(true);
    expect(any("contains", "ca")).toBe(true);
    expect(any("not_contains", "ca")).toBe(false);
    expect(any("in", "HAT, MUG")).toBe(true);
    expect(check({ path: "lineItems.*.quantity", operator: "gte", value: 2 }, withNotes([]))).toBe(true);
    expect(check({ path: "lineItems.*.quantity", operator: "gt", value: 2 }, withNotes([]))).toBe(false);
    expect(any("exists")).toBe(true);
    expect(check({ path: "lineItems.*.sku", operator: "exists" }, { ...order, lineItems: [] })).toBe(false);
    expect(
      fieldConditionDomainIssues({ path: "lineItems.*.sku", operator: "eq", value: "MUG" }, "order"),
    ).toEqual([]);
    expect(describeFieldCondition({ path: "lineItems.*.sku", operator: "eq", value: "MUG" })).toBe(
      "Any line item › SKU is 'MUG'",
    );
  });

  it("any line item's property by name", () => {
    const entity = {
      ...order,
      attributes: {
        line_items: [
          { properties: [{ name: "size", value: "M" }] },
          {
            properties: [
              { name: "colour", value: "red" },
              { name: "engraving", value: "A.B." },
            ],
          },
        ],
      },
    };
    const path = "attributes.line_items.*.properties[name=engraving].value";
    expect(check({ path, operator: "eq", value: "A.B." }, entity)).toBe(true);
    expect(check({ path, operator: "eq", value: "C" }, entity)).toBe(false);
  });
});
