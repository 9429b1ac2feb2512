import { z } from "zod";
import { isDomain, type Domain } from "@/lib/domains/domains";
import { FIELD_PATH, fieldAt, readPath, readsAnyItem, splitPath } from "@/lib/domains/fields";
import { fieldLabel } from "@/lib/domains/labels";
import { paramsObject, text } from "../params";
import { aDomain } from "../triggers/triggers";
import type { ConditionDefinition, EvaluationContext } from "../types";
import { fieldWhy, noRecordWhy } from "./why";

/**
 * Compares one field of the run's record with a value. Comparisons are forgiving in the ways a
 * merchant expects and strict where guessing would surprise:
 * - a number and a numeric string compare as numbers (`total` 120 equals "120");
 * - two ISO dates compare as instants, so time zones and precision do not matter;
 * - `contains` ignores case, on text (substring) and on lists (membership);
 * - a missing field equals nothing and is not greater or less than anything.
 */

export const FIELD_OPERATORS = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "contains",
  "not_contains",
  "in",
  "exists",
  "not_exists",
] as const;
export type FieldOperator = (typeof FIELD_OPERATORS)[number];

/** How each operator reads in a sentence: "total is greater than 100". */
export const OPERATOR_PHRASES: Record<FieldOperator, string> = {
  eq: "is",
  neq: "is not",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  contains: "contains",
  not_contains: "does not contain",
  in: "is one of",
  exists: "is set",
  not_exists: "is not set",
};

const VALUELESS: ReadonlySet<FieldOperator> = new Set(["exists", "not_exists"]);
const ORDERING: ReadonlySet<FieldOperator> = new Set(["gt", "gte", "lt", "lte"]);

const fieldValue = z.union(
  [
    z.string(),
    z.number().finite(),
    z.boolean(),
    z.array(z.union([z.string(), z.number().finite()])).max(100, "can list at most 100 values"),
  ],
  { error: "must be text, a number, true or false, or a list" },
);

const fieldParams = paramsObject({
  path: text()
    .trim()
    .min(1, { error: "is empty; choose a field such as total", abort: true })
    // Dashes past the first segment: an HTTP answer's header (`steps.h.headers.x-tier`); a list
    // by a selector or any item (lib/domains/fields.ts): `attributes.note_attributes[name=gift].value`.
    .regex(FIELD_PATH, "must be a field such as total, lineItems.0.sku or lineItems.*.sku"),
  operator: z.enum(FIELD_OPERATORS, { error: `must be one of ${FIELD_OPERATORS.join(", ")}` }),
  value: fieldValue.optional(),
}).superRefine((params, ctx) => {
  const { operator, value } = params;
  if (VALUELESS.has(operator)) return;
  if (value === undefined) {
    ctx.addIssue({ code: "custom", path: ["value"], message: "is required for this comparison" });
  } else if (
    Array.isArray(value) &&
    operator !== "in" &&
    operator !== "contains" &&
    operator !== "not_contains"
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["value"],
      message: "can only be a list with 'is one of' or 'contains'",
    });
  } else if (ORDERING.has(operator) && typeof value === "boolean") {
    ctx.addIssue({ code: "custom", path: ["value"], message: "must be a number or a date to compare with" });
  }
});

export type FieldConditionParams = z.infer<typeof fieldParams>;
type Value = string | number | boolean;

function asNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

function asInstant(value: unknown): number | null {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : null;
  if (typeof value !== "string" || !ISO_DATE.test(value)) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

function asBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (value === "true") return true;
  if (value === "false") return false;
  return null;
}

function equals(actual: unknown, expected: Value): boolean {
  if (actual === undefined || actual === null) return false;
  if (typeof actual === "number" || typeof expected === "number") {
    const a = asNumber(actual);
    return a !== null && a === asNumber(expected);
  }
  if (typeof actual === "boolean" || typeof expected === "boolean") {
    const a = asBoolean(actual);
    return a !== null && a === asBoolean(expected);
  }
  if (typeof actual === "string") {
    if (actual === expected) return true;
    const a = asInstant(actual);
    return a !== null && a === asInstant(expected);
  }
  if (actual instanceof Date) {
    const a = asInstant(actual);
    return a !== null && a === asInstant(expected);
  }
  return false;
}

/** Negative, zero or positive like a comparator; `null` when the two cannot be ordered. */
function compare(actual: unknown, expected: Value): number | null {
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== null && b !== null) return a - b;
  const ta = asInstant(actual);
  const tb = asInstant(expected);
  if (ta !== null && tb !== null) return ta - tb;
  return null;
}

function sameText(a: unknown, b: Value): boolean {
  return typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : equals(a, b);
}

function contains(actual: unknown, expected: Value | Value[]): boolean {
  // A list of values: the field contains any of them.
  if (Array.isArray(expected)) return expected.some((item) => contains(actual, item));
  if (Array.isArray(actual)) return actual.some((item) => sameText(item, expected));
  if (typeof actual === "string") return actual.toLowerCase().includes(String(expected).toLowerCase());
  return false;
}

/** The value list of `in`: a list, or a comma-separated string ("paid, fulfilled"). */
function listOf(value: Value | Value[]): Value[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") {
    return value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  }
  return [value];
}

function isIn(actual: unknown, value: Value | Value[]): boolean {
  const list = listOf(value);
  // A list field is "in" the values when any of its items is: tags in (vip, gold).
  if (Array.isArray(actual)) return actual.some((item) => list.some((v) => equals(item, v)));
  return list.some((v) => equals(actual, v));
}

/**
 * Pure: decides the branch for the values of every item a `*` path read (`lineItems.*.sku`): any
 * item's value that compares as chosen is enough; "is not", "does not contain" and "is not set"
 * hold when no item's value is, contains or is set.
 */
export function compareAnyItem(
  operator: FieldOperator,
  values: unknown,
  value: Value | Value[] | undefined,
): boolean {
  const items = Array.isArray(values) ? values : [];
  switch (operator) {
    case "neq":
      return !items.some((item) => compareField("eq", item, value));
    case "not_contains":
      return !items.some((item) => compareField("contains", item, value));
    case "not_exists":
      return !items.some((item) => compareField("exists", item, value));
    default:
      return items.some((item) => compareField(operator, item, value));
  }
}

/** Pure: decides the branch for `actual`, the value read at the condition's path. */
export function compareField(
  operator: FieldOperator,
  actual: unknown,
  value: Value | Value[] | undefined,
): boolean {
  switch (operator) {
    case "exists":
      return actual !== undefined && actual !== null;
    case "not_exists":
      return actual === undefined || actual === null;
    default:
      break;
  }
  if (value === undefined) return false;
  switch (operator) {
    case "eq":
      return !Array.isArray(value) && equals(actual, value);
    case "neq":
      return !(!Array.isArray(value) && equals(actual, value));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      if (Array.isArray(value)) return false;
      const order = compare(actual, value);
      if (order === null) return false;
      if (operator === "gt") return order > 0;
      if (operator === "gte") return order >= 0;
      if (operator === "lt") return order < 0;
      return order <= 0;
    }
    case "contains":
      return contains(actual, value);
    case "not_contains":
      return !contains(actual, value);
    case "in":
      return isIn(actual, value);
  }
}

function formatValue(value: Value): string {
  return typeof value === "string" ? `'${value}'` : String(value);
}

export function describeFieldCondition({ path, operator, value }: FieldConditionParams): string {
  const phrase = OPERATOR_PHRASES[operator];
  const field = conditionFieldLabel(path);
  if (VALUELESS.has(operator) || value === undefined) return `${field} ${phrase}`;
  const shown = operator === "in" ? listOf(value) : Array.isArray(value) ? value : [value];
  return `${field} ${phrase} ${shown.map(formatValue).join(operator === "in" ? ", " : " or ")}`;
}

/**
 * The field a condition reads, as a merchant reads it: "Customer" for `customerId`, "First line
 * item › SKU" for `lineItems.0.sku`, "Score from step 'code1'" for `steps.code1.score`.
 */
export function conditionFieldLabel(path: string): string {
  if (!readsStepOutput(path)) return fieldLabel(path);
  const [, step, ...rest] = splitPath(path);
  return rest.length > 0
    ? `${fieldLabel(rest.join("."))} from step '${step}'`
    : `What step '${step}' returned`;
}

/**
 * What is wrong with this condition under a trigger of `domain`: the path is not a field of the
 * record, or the value can never match the field's options.
 */
/** A path into an earlier step's output (`steps.code1.score`) rather than a field of the record. */
export function readsStepOutput(path: string): boolean {
  return path.startsWith("steps.");
}

export function fieldConditionDomainIssues(params: FieldConditionParams, domain: Domain): string[] {
  if (readsStepOutput(params.path)) return [];
  const field = fieldAt(domain, params.path);
  if (!field) return [`'${params.path}' is not a field of ${aDomain(domain)}.`];
  if (field.options && (params.operator === "eq" || params.operator === "neq" || params.operator === "in")) {
    const options = field.options;
    const unknown =
      params.value === undefined ? [] : listOf(params.value).filter((v) => !options.includes(String(v)));
    if (unknown.length > 0) {
      return [
        `${unknown.map(formatValue).join(", ")} is never the ${params.path} of ${aDomain(domain)}; use one of ${options.join(", ")}.`,
      ];
    }
  }
  return [];
}

/** The value a condition's path reads: a field of the record, or of an earlier step's output. */
function fieldRead(path: string, ctx: EvaluationContext): unknown {
  return readsStepOutput(path)
    ? readPath(ctx.steps, path.slice("steps.".length))
    : readPath(ctx.entity, path);
}

export const fieldCondition = {
  type: "auto.condition.field",
  category: "condition",
  label: "Check a field",
  description:
    "Follows 'true' when a field of the record (or of an earlier step's output, such as steps.code1.score) compares as chosen with a value, 'false' otherwise.",
  params: fieldParams,
  defaultParams: () => ({ path: "", operator: "eq" as const, value: "" }),
  handles: { in: true, out: ["true", "false"] },
  summarise: describeFieldCondition,
  outputs: () => [{ path: "result", label: "whether it was true" }],
  evaluate: (params, ctx) =>
    (readsAnyItem(params.path) ? compareAnyItem : compareField)(
      params.operator,
      fieldRead(params.path, ctx),
      params.value,
    ),
  explain: (params, ctx, result) => {
    if (ctx.entity === null && !readsStepOutput(params.path))
      return noRecordWhy(params.operator, params.path);
    const { operator, value } = params;
    const actual = fieldRead(params.path, ctx);
    const compared = value === undefined ? [] : operator === "in" ? listOf(value) : [value].flat();
    const ordering = ORDERING.has(operator);
    const unordered =
      ordering && (value === undefined || Array.isArray(value) || compare(actual, value) === null);
    return fieldWhy(
      params,
      { field: conditionFieldLabel(params.path), actual, compared, unordered },
      result,
      ctx.timeZone,
    );
  },
  // A condition on an earlier step's output reads no record, and is checked as that token is.
  needsRecord: (params) => !readsStepOutput(params.path),
  domainIssues: (params, domain) => (isDomain(domain) ? fieldConditionDomainIssues(params, domain) : []),
  readsTokens: ({ path }) =>
    typeof path === "string" && readsStepOutput(path) ? [{ param: "field", text: `{${path}}` }] : [],
} satisfies ConditionDefinition<typeof fieldParams>;
