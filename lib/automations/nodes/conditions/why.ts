import { formatInZone } from "@/lib/time/cron";
import type { ConditionWhy } from "../types";

/**
 * Why a condition went its way, in the merchant's words and as data (SPEC §2 "Backtest and why"):
 * the field it read, the value it found there or that it found none, the comparison and the value
 * it compared with — "Total is 80, not more than 100", "Shipping country code is
 * missing", "Tag 'vip' is not on the order". Pure; a run records it on its condition step, a dry
 * run and a backtest say it.
 */

/** A value as a sentence shows it: text quoted, a time in the shop's zone, a list joined. */
function shownValue(value: unknown, timeZone: string): string {
  if (value === undefined || value === null) return "missing";
  if (typeof value === "string") {
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)))
      return formatInZone(new Date(value), timeZone);
    return `'${cut(value, 80)}'`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null))
    return value.length === 0
      ? "empty"
      : cut(value.map((item) => shownValue(item, timeZone)).join(", "), 120);
  return cut(JSON.stringify(value), 120);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The value read, as the step keeps it: small values whole, a long text or a big object cut. */
function kept(value: unknown): unknown {
  if (typeof value === "string") return cut(value, 200);
  if (value !== null && typeof value === "object") {
    const json = JSON.stringify(value);
    return json.length <= 200 ? value : cut(json, 200);
  }
  return value;
}

const missing = (value: unknown) => value === undefined || value === null;

/** The words after "Total is 80" for each comparing operator, when it held and when it did not. */
const VERDICTS: Record<string, (compared: string) => [held: string, failed: string]> = {
  eq: (y) => ["", `, not ${y}`],
  neq: (y) => [`, not ${y}`, ", the value it must not be"],
  gt: (y) => [`, more than ${y}`, `, not more than ${y}`],
  gte: (y) => [`, at least ${y}`, `, less than ${y}`],
  lt: (y) => [`, less than ${y}`, `, not less than ${y}`],
  lte: (y) => [`, at most ${y}`, `, more than ${y}`],
  contains: (y) => [`, which contains ${y}`, `, which does not contain ${y}`],
  not_contains: (y) => [`, which does not contain ${y}`, `, which contains ${y}`],
  in: (y) => [`, one of ${y}`, `, not one of ${y}`],
};

/** What a field condition read, as its module (field.ts) works it out. */
export interface FieldRead {
  /** The field in words: "Total", "Score from step 'code1'". */
  field: string;
  /** The value at the path. */
  actual: unknown;
  /** The values it was compared with: one, or a list's (`in`, `contains` any of). */
  compared: readonly unknown[];
  /** An ordering (`gt`…) found the two values impossible to order (text against a number). */
  unordered: boolean;
}

/** Why a "Check a field" condition came out `result`. */
export function fieldWhy(
  { path, operator, value }: { path: string; operator: string; value?: unknown },
  { field, actual, compared, unordered }: FieldRead,
  result: boolean,
  timeZone: string,
): ConditionWhy {
  const base = {
    path,
    operator,
    missing: missing(actual),
    ...(missing(actual) ? {} : { value: kept(actual) }),
    ...(value === undefined ? {} : { compared: value }),
  };
  const found = shownValue(actual, timeZone);
  if (operator === "exists" || operator === "not_exists")
    return { ...base, text: missing(actual) ? `${field} is missing` : `${field} is set: ${found}` };
  if (missing(actual)) return { ...base, text: `${field} is missing` };
  const shown = compared.map((v) => shownValue(v, timeZone)).join(operator === "in" ? ", " : " or ");
  if (unordered) return { ...base, text: `${field} is ${found}, which cannot be compared with ${shown}` };
  const [held, failed] = VERDICTS[operator]?.(shown) ?? ["", ""];
  return { ...base, text: `${field} is ${found}${result ? held : failed}` };
}

/** Why a "Has tag" condition came out `result`, about `subject` ("the order"). */
export function tagWhy(tag: string, tags: unknown, result: boolean, subject: string): ConditionWhy {
  return {
    operator: "has_tag",
    compared: tag,
    missing: !Array.isArray(tags) || tags.length === 0,
    ...(Array.isArray(tags) ? { value: kept(tags) } : {}),
    text: `Tag '${tag}' is ${result ? "" : "not "}on ${subject}`,
  };
}

/** A condition with nothing to read: no record (a run about none, or whose record is gone). */
export function noRecordWhy(operator: string, path?: string): ConditionWhy {
  return { ...(path ? { path } : {}), operator, missing: true, text: "There is no record to check" };
}
