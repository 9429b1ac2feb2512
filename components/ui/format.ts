/**
 * Number and date formatting shared by server and client components. One fixed locale keeps the
 * server's HTML and the browser's first render identical.
 */
import { LOCALE } from "@/lib/money/format";

export { LOCALE, formatDecimal, formatMoney } from "@/lib/money/format";

const integer = new Intl.NumberFormat(LOCALE);

export function formatCount(value: number): string {
  return integer.format(value);
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });

/** "3 minutes ago", "yesterday", "in 2 hours"; anything within a minute is "just now". */
export function formatRelative(date: Date, now: number): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return "just now";
  for (const [unit, size] of units) {
    if (abs >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** "Nov 30, 2026, 9:05 AM UTC" in the given time zone (the runtime's when omitted). */
export function formatExact(date: Date, timeZone?: string): string {
  return (
    new Intl.DateTimeFormat(LOCALE, {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone,
    }).format(date) + ` ${zoneName(date, timeZone)}`
  );
}

function zoneName(date: Date, timeZone?: string): string {
  const part = new Intl.DateTimeFormat(LOCALE, { timeZone, timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? "";
}

/**
 * "Dec 2, 2:00 PM" in the shop's time zone — the year only when it is not this year there. Beside
 * a relative time ("in 2 days · Dec 2, 2:00 PM"): absolute and relative together.
 */
export function formatWhen(date: Date, timeZone: string, now: number): string {
  const year = (d: Date) => new Intl.DateTimeFormat(LOCALE, { year: "numeric", timeZone }).format(d);
  return new Intl.DateTimeFormat(LOCALE, {
    month: "short",
    day: "numeric",
    year: year(date) === year(new Date(now)) ? undefined : "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  }).format(date);
}

/** The hover text of a time: exact in the shop's zone, then in UTC (the same line if the shop is on UTC). */
export function exactTitle(date: Date, timeZone: string): string {
  const shop = formatExact(date, timeZone);
  return timeZone === "UTC" ? shop : `${shop} · ${formatExact(date, "UTC")}`;
}
