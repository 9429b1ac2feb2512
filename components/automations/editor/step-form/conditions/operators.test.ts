import { describe, expect, it } from "vitest";
import { fieldCondition, FIELD_OPERATORS } from "@/lib/automations/nodes/conditions/field";
import { fieldAt, type FieldInfo } from "@/lib/domains/fields";
import {
  defaultInput,
  inputToValue,
  operatorLabel,
  operatorsFor,
  valueKindFor,
  valueToInput,
} from "./operators";

const total = fieldAt("order", "total")!;
const status = fieldAt("order", "status")!;
const email = fieldAt("order", "email")!;
const tags = fieldAt("order", "tags")!;
const marketing = fieldAt("customer", "acceptsMarketing")!;
const createdAt = fieldAt("order", "createdAt")!;

describe("operatorsFor", () => {
  it("offers ordering for numbers and dates, text matching for strings", () => {
    expect(operatorsFor("number")).toEqual([
      "eq",
      "neq",
      "gt",
      "gte",
      "lt",
      "lte",
      "in",
      "exists",
      "not_exists",
    ]);
    expect(operatorsFor("date")).toContain("gte");
    expect(operatorsFor("string")).toEqual([
      "eq",
      "neq",
      "contains",
      "not_contains",
      "in",
      "exists",
      "not_exists",
    ]);
    expect(operatorsFor("string")).not.toContain("gt");
  });

  it("offers is / is not / is one of for enums, is for booleans, membership for lists", () => {
    expect(operatorsFor("enum")).toEqual(["eq", "neq", "in", "exists", "not_exists"]);
    expect(operatorsFor("boolean")).toEqual(["eq", "exists", "not_exists"]);
    expect(operatorsFor("array")).toEqual(["contains", "not_contains", "in", "exists", "not_exists"]);
  });

  it("offers every operator for a path whose type is not known", () => {
    expect(operatorsFor(null)).toEqual(FIELD_OPERATORS);
  });

  it("offers every operator, with a text value, for a path under what the store sent", () => {
    const gift = fieldAt("order", "attributes.note_attributes.0.value")!;
    expect(operatorsFor(gift.type)).toEqual(FIELD_OPERATORS);
    expect(valueKindFor(gift, "eq")).toBe("text");
    expect(valueKindFor(gift, "contains")).toBe("text");
    expect(valueKindFor(gift, "exists")).toBe("none");
  });

  it("only ever offers operators the condition knows", () => {
    for (const type of ["number", "date", "string", "enum", "boolean", "array", "object", "any"] as const) {
      for (const op of operatorsFor(type)) expect(FIELD_OPERATORS).toContain(op);
    }
    expect(operatorLabel("gte")).toBe("is at least");
  });
});

describe("valueKindFor", () => {
  it("fits the input to the field and the comparison", () => {
    expect(valueKindFor(total, "gt")).toBe("number");
    expect(valueKindFor(status, "eq")).toBe("enum");
    expect(valueKindFor(status, "in")).toBe("enum-list");
    expect(valueKindFor(total, "in")).toBe("list");
    expect(valueKindFor(email, "contains")).toBe("text");
    expect(valueKindFor(marketing, "eq")).toBe("boolean");
    expect(valueKindFor(createdAt, "lt")).toBe("date");
    expect(valueKindFor(tags, "contains")).toBe("text");
    expect(valueKindFor(null, "eq")).toBe("text");
  });

  it("has no value input for exists and not_exists", () => {
    expect(valueKindFor(total, "exists")).toBe("none");
    expect(valueKindFor(null, "not_exists")).toBe("none");
  });
});

/** The params the form would store, checked by the condition's own schema. */
function parses(path: string, operator: (typeof FIELD_OPERATORS)[number], value: unknown): boolean {
  const params = value === undefined ? { path, operator } : { path, operator, value };
  return fieldCondition.params.safeParse(params).success;
}

describe("inputToValue", () => {
  it("stores numbers as numbers, and nothing for an empty input", () => {
    expect(inputToValue("number", "120.5", total)).toBe(120.5);
    expect(inputToValue("number", " ", total)).toBeUndefined();
    expect(parses("total", "gt", inputToValue("number", "100", total))).toBe(true);
  });

  it("stores a comma-separated list, as numbers for a number field", () => {
    expect(inputToValue("list", "vip, gold,, ", tags)).toEqual(["vip", "gold"]);
    expect(inputToValue("list", "10, 20", total)).toEqual([10, 20]);
    expect(inputToValue("list", " , ", tags)).toBeUndefined();
    expect(parses("tags", "in", inputToValue("list", "vip, gold", tags))).toBe(true);
  });

  it("stores the ticked options of an enum, true/false for a boolean", () => {
    expect(inputToValue("enum-list", ["paid", "fulfilled"], status)).toEqual(["paid", "fulfilled"]);
    expect(inputToValue("enum-list", [], status)).toBeUndefined();
    expect(inputToValue("boolean", "false", marketing)).toBe(false);
    expect(inputToValue("enum", "paid", status)).toBe("paid");
    expect(parses("acceptsMarketing", "eq", false)).toBe(true);
  });

  it("stores no value for exists, which the schema accepts", () => {
    expect(inputToValue("none", "whatever", total)).toBeUndefined();
    expect(parses("total", "exists", undefined)).toBe(true);
  });

  it("keeps text as typed, and stores nothing for empty text so 'is required' shows", () => {
    expect(inputToValue("text", " Gmail ", email)).toBe(" Gmail ");
    expect(inputToValue("text", "", email)).toBeUndefined();
    expect(parses("email", "eq", undefined)).toBe(false);
  });
});

describe("valueToInput", () => {
  it("shows stored values in their input, and round-trips", () => {
    const cases: [Parameters<typeof valueToInput>[0], unknown, FieldInfo][] = [
      ["number", 120, total],
      ["list", ["vip", "gold"], tags],
      ["enum-list", ["paid"], status],
      ["boolean", true, marketing],
      ["enum", "paid", status],
      ["text", "gmail", email],
    ];
    for (const [kind, value, field] of cases) {
      const input = valueToInput(kind, value as never);
      expect(inputToValue(kind, input, field)).toEqual(value);
    }
  });

  it("carries a value across a change of operator", () => {
    expect(valueToInput("list", "paid")).toBe("paid");
    expect(valueToInput("enum-list", "paid, fulfilled")).toEqual(["paid", "fulfilled"]);
    expect(valueToInput("enum", ["paid", "fulfilled"])).toBe("paid");
    expect(valueToInput("text", undefined)).toBe("");
  });

  it("starts a new input with a sensible choice", () => {
    expect(defaultInput("enum", status)).toBe("pending");
    expect(defaultInput("boolean", marketing)).toBe("true");
    expect(defaultInput("enum-list", status)).toEqual([]);
    expect(defaultInput("number", total)).toBe("");
  });
});
