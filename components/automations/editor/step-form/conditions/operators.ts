import {
  FIELD_OPERATORS,
  OPERATOR_PHRASES,
  type FieldOperator,
} from "@/lib/automations/nodes/conditions/field";
import type { FieldInfo, FieldType } from "@/lib/domains/fields";

/**
 * Which comparisons the "Check a field" form offers for a field, and what kind of value input
 * each needs. Pure; the operator names and value shapes are the condition's own
 * (`lib/automations/nodes/conditions/field.ts`), this module only narrows them to what makes
 * sense for the field's type.
 */

const PRESENCE: readonly FieldOperator[] = ["exists", "not_exists"];

const BY_TYPE: Record<FieldType, readonly FieldOperator[]> = {
  number: ["eq", "neq", "gt", "gte", "lt", "lte", "in", ...PRESENCE],
  date: ["eq", "neq", "gt", "gte", "lt", "lte", ...PRESENCE],
  string: ["eq", "neq", "contains", "not_contains", "in", ...PRESENCE],
  enum: ["eq", "neq", "in", ...PRESENCE],
  boolean: ["eq", ...PRESENCE],
  // A list field: `contains` tests membership, `in` whether any item is one of the values.
  array: ["contains", "not_contains", "in", ...PRESENCE],
  object: PRESENCE,
  // A path under `attributes`: whatever the store sent, so every comparison may fit.
  any: FIELD_OPERATORS,
};

/** The operators that fit a field of `type`; every operator for a path whose type is not known. */
export function operatorsFor(type: FieldType | null): readonly FieldOperator[] {
  return type === null ? FIELD_OPERATORS : BY_TYPE[type];
}

/** "is greater than": how an operator reads in the Operator select. */
export function operatorLabel(operator: FieldOperator): string {
  return OPERATOR_PHRASES[operator];
}

export function isFieldOperator(value: string): value is FieldOperator {
  return (FIELD_OPERATORS as readonly string[]).includes(value);
}

/**
 * The value input a comparison needs:
 * - `none`: exists / not_exists take no value;
 * - `number`, `date`, `text`: one value typed in;
 * - `enum`: one of the field's options; `enum-list`: several of them (`in`);
 * - `boolean`: true or false;
 * - `list`: several values, comma-separated (`in`).
 */
export type ValueKind = "none" | "number" | "date" | "text" | "enum" | "enum-list" | "boolean" | "list";

export function valueKindFor(field: FieldInfo | null, operator: FieldOperator): ValueKind {
  if (operator === "exists" || operator === "not_exists") return "none";
  const type = field?.type ?? null;
  if (operator === "in") return type === "enum" && field?.options ? "enum-list" : "list";
  switch (type) {
    case "number":
      return "number";
    case "date":
      return "date";
    case "boolean":
      return "boolean";
    case "enum":
      return field?.options && (operator === "eq" || operator === "neq") ? "enum" : "text";
    default:
      return "text";
  }
}

/** The value the condition keeps: what the schema accepts for `value`, or nothing. */
export type ConditionValue = string | number | boolean | (string | number)[] | undefined;

/** A value as its input shows it: text for one value, a list for the enum checkboxes. */
export type ValueInput = string | string[];

function asText(value: ConditionValue): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return value.map(String).join(", ");
  return String(value);
}

function asList(value: ConditionValue): string[] {
  if (value === undefined || value === "") return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") return splitList(value);
  return [String(value)];
}

/** "paid, fulfilled ," → ["paid", "fulfilled"]. */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** What the value input shows for a stored value. */
export function valueToInput(kind: ValueKind, value: ConditionValue): ValueInput {
  switch (kind) {
    case "none":
      return "";
    case "enum-list":
      return asList(value);
    case "list":
      return asList(value).join(", ");
    default:
      return Array.isArray(value) ? (value[0] === undefined ? "" : String(value[0])) : asText(value);
  }
}

function numberOrText(text: string): string | number {
  const n = Number(text);
  return text !== "" && Number.isFinite(n) ? n : text;
}

/**
 * The value to store for what the input holds. An empty input stores nothing, so the condition
 * says "value is required for this comparison" rather than comparing with "".
 */
export function inputToValue(kind: ValueKind, input: ValueInput, field: FieldInfo | null): ConditionValue {
  const text = Array.isArray(input) ? input.join(", ") : input;
  switch (kind) {
    case "none":
      return undefined;
    case "number": {
      const trimmed = text.trim();
      if (trimmed === "") return undefined;
      // Keep what does not parse as typed: the schema accepts it and validation says what is wrong.
      return numberOrText(trimmed);
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : undefined;
    case "enum-list":
    case "list": {
      const items = Array.isArray(input) ? input.filter((item) => item !== "") : splitList(text);
      if (items.length === 0) return undefined;
      return field?.type === "number" ? items.map(numberOrText) : items;
    }
    case "date":
    case "enum":
      return text.trim() === "" ? undefined : text.trim();
    case "text":
      return text === "" ? undefined : text;
  }
}

/** What a new value input starts with: the first option of a choice, "true" for a yes/no, else empty. */
export function defaultInput(kind: ValueKind, field: FieldInfo | null): ValueInput {
  switch (kind) {
    case "enum":
      return field?.options?.[0] ?? "";
    case "enum-list":
      return [];
    case "boolean":
      return "true";
    default:
      return "";
  }
}
