/**
 * Token filters (SPEC §2 "Templating"): `{entity.total | money}` → "€65.00" in the record's
 * currency, `{entity.createdAt | date}` → "Nov 30, 2026" in the shop's time zone. Pure and
 * browser-safe, so the engine, the dry run and the editor's preview format a value the same way.
 */

import { LOCALE, formatMoney } from "@/lib/money";

export const TOKEN_FILTERS = ["money", "date"] as const;
export type TokenFilter = (typeof TOKEN_FILTERS)[number];

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

/** "use money or date": the filters there are, for messages. */
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

/**
 * The value as the filter writes it, or `null` when the filter does not apply to it (money of a
 * word, a date that is not one): the caller then writes the value as it is.
 */
export function applyFilter(filter: TokenFilter, value: unknown, ctx: FilterContext): string | null {
  switch (filter) {
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
