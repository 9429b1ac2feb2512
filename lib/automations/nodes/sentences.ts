import { formatInZone } from "@/lib/time/cron";

/**
 * The small words the steps' sentences share (a dry run's "Would …", a summary): a value as text,
 * an excerpt of a long one, a time in the shop's zone, a list. Pure, browser-safe.
 */

/** A value as text: a string as it is, nothing as "", anything else as JSON. */
export function text(value: unknown): string {
  return typeof value === "string"
    ? value
    : value === undefined || value === null
      ? ""
      : JSON.stringify(value);
}

/** A value on one line, cut at `max` characters with an ellipsis. */
export function excerpt(value: unknown, max = 120): string {
  const flat = text(value)
    .replace(/<br>\n?/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** An ISO time an executor prepared, in the shop's zone: "Sat 5 Dec 2026, 10:00 CET". */
export function when(value: unknown, timeZone: string): string {
  const at = typeof value === "string" || value instanceof Date ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? formatInZone(at, timeZone) : text(value);
}

/** ["vip", "gold"] as a sentence says them: "vip, gold". */
export function listed(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(", ") : text(value);
}
