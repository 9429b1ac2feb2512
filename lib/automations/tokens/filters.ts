/**
 * Token filters (SPEC §2 "Templating", "Trust at the edges"): `{entity.total | money}` →
 * "€65.00" in the record's currency, `{entity.createdAt | date}` → "Nov 30, 2026" in the shop's
 * time zone; and three that say how the value is written instead of the field's own escaping:
 * `| json` (the value as JSON: `"Eve"`, `65`, `{"a":1}`), `| url` (percent-encoded) and `| raw`
 * (as it is, for a merchant who means to splice JSON or a path). Pure and browser-safe, so the
 * engine, the dry run and the editor's preview write a value the same way.
 */

import { LOCALE, formatMoney } from "@/lib/money/format";
import { percentEncode } from "./escape";

export const TOKEN_FILTERS = ["money", "date", "json", "url", "raw"] as const;
export type TokenFilter = (typeof TOKEN_FILTERS)[number];

/** The filters that choose the value's encoding: the field's own escaping is not applied on top. */
export const ENCODING_FILTERS = ["json", "url", "raw"] as const satisfies readonly TokenFilter[];
export type EncodingFilter = (typeof ENCODING_FILTERS)[number];

export function isEncodingFilter(name: string | null): name is EncodingFilter {
  return name !== null && (ENCODING_FILTERS as readonly string[]).includes(name);
}

/** What a filter can read besides the value: the currency of the record it came from, the shop's zone. */
export interface FilterContext {
  /** A three-letter currency code (`EUR`); without one, `money` prints the plain amount. */
  currency?: string | null;
  /** The shop's IANA time zone; UTC when absent. */
  timeZone?: string;
}

export function isTokenFilter(name: string): name is TokenFilter {
  return (TOKEN_FILTERS as readonly string[]).includes(name);
}

/** "use money, date, json, url or raw": the filters there are, for messages. */
export function filterChoices(): string {
  const names = [...TOKEN_FILTERS];
  const last = names.pop();
  return names.length > 0 ? `${names.join(", ")} or ${last}` : (last ?? "");
}

function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

function toDate(value: unknown): Date | null {
  const date =
    value instanceof Date
      ? value
      : typeof value === "string" || typeof value === "number"
        ? new Date(value)
        : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "Nov 30, 2026": the day it was in `timeZone` (UTC when absent or unknown). */
export function formatDay(date: Date, timeZone = "UTC"): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone });
    } catch {
      return formatDay(date, "UTC");
    }
    dateFormats.set(timeZone, format);
  }
  return format.format(date);
}

/** How a value reads in text: nothing for missing, ISO for dates, JSON for objects and lists. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (typeof value === "object") {
    try {
      return JSON.stringify(value) ?? "";
    } catch {
      return "";
    }
  }
  return "";
}

/** A value as JSON: `null` for missing (so `{"total": {x}}` stays JSON), dates as ISO strings. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    // A bigint or a cycle: not from a record's JSON, but never a broken body.
    return typeof value === "bigint" ? String(value) : "null";
  }
}

/**
 * The value as the filter writes it, or `null` when the filter does not apply to it (money of a
 * word, a date that is not one): the caller then writes the value as it is.
 */
export function applyFilter(filter: TokenFilter, value: unknown, ctx: FilterContext): string | null {
  switch (filter) {
    case "json":
      return toJson(value);
    case "url":
      return percentEncode(formatValue(value));
    case "raw":
      return formatValue(value);
    case "money": {
      const amount = toNumber(value);
      return amount === null ? null : formatMoney(amount, ctx.currency);
    }
    case "date": {
      const date = toDate(value);
      return date === null ? null : formatDay(date, ctx.timeZone);
    }
  }
}
