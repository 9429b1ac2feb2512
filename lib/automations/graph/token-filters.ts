/**
 * Token filters (SPEC §2 "Templating"): `{entity.total | money}` → "€65.00" in the record's
 * currency, `{entity.createdAt | date}` → "Nov 30, 2026" in the shop's time zone. Pure and
 * browser-safe, so the engine, the dry run and the editor's preview format a value the same way.
 */

export const TOKEN_FILTERS = ["money", "date"] as const;
export type TokenFilter = (typeof TOKEN_FILTERS)[number];

/** What a filter can read besides the value: the currency of the record it came from, the shop's zone. */
export interface FilterContext {
  /** A three-letter currency code (`EUR`); without one, `money` prints the plain amount. */
  currency?: string | null;
  /** The shop's IANA time zone; UTC when absent. */
  timeZone?: string;
}

/**
 * The locale values are written in. The same fixed locale as `components/ui/format.ts`, so an
 * email and the admin write "€65.00" and "Nov 30, 2026" alike.
 */
const LOCALE = "en-US";

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

const moneyFormats = new Map<string, Intl.NumberFormat>();
const plainAmount = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "€65.00" for (65, "EUR"); the plain amount ("65.00") without a currency Intl knows. */
export function formatMoney(amount: number, currency?: string | null): string {
  if (!currency) return plainAmount.format(amount);
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(LOCALE, { style: "currency", currency });
    } catch {
      return `${plainAmount.format(amount)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
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
