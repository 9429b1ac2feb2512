import { resolveWallTime, utcOffsetMs } from "@/lib/time/dst";
import type { QuietHours } from "./settings";

/**
 * Quiet hours in a zone (issue 51, item 3). Pure: whether an instant falls inside them, and when
 * they end, read on the zone's own wall clock through lib/time (DST-safe: an end time a spring
 * gap skips is the gap's end; one a fall-back repeats is its first occurrence).
 */

const DAY = 86_400_000;
const MINUTE = 60_000;

/** "21:00" → 1260. */
export function minutesOf(time: string): number {
  const [h = "0", m = "0"] = time.split(":");
  return Number(h) * 60 + Number(m);
}

/** The instant the wall clock of `zone` reads `minutes` on the wall day `dayStart` (UTC-written ms). */
function instantOf(zone: string, dayStart: number, minutes: number): number {
  const resolved = resolveWallTime(zone, dayStart + minutes * MINUTE);
  switch (resolved.kind) {
    case "single":
      return resolved.at;
    case "repeat":
      return resolved.first;
    case "gap":
      return resolved.end ?? resolved.shifted;
  }
}

/**
 * When quiet hours that hold at `now` in `zone` end; null when `now` is outside them (or they are
 * off). Overnight hours (21:00–08:00) hold from the start time to the end time the next morning.
 */
export function quietUntil(zone: string, now: Date, quiet: QuietHours | null): Date | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const wall = now.getTime() + utcOffsetMs(zone, now.getTime());
  const dayStart = Math.floor(wall / DAY) * DAY;
  const minute = Math.floor((wall - dayStart) / MINUTE);
  const overnight = start > end;
  const inside = overnight ? minute >= start || minute < end : minute >= start && minute < end;
  if (!inside) return null;
  // The end is today when it is still ahead on the wall clock, else tomorrow's.
  const endDay = minute < end ? dayStart : dayStart + DAY;
  const until = instantOf(zone, endDay, end);
  // A gap that swallowed the end can put it at or before now: then they are over.
  return until > now.getTime() ? new Date(until) : null;
}

/**
 * Formatters by zone and style, made once: each deferral's sentence reads three clocks in two
 * zones, and making an Intl.DateTimeFormat costs far more than using one (bench -- customers).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const STYLES = {
  time: { locale: "en-GB", options: { hour: "2-digit", minute: "2-digit" } },
  day: { locale: "en-CA", options: {} },
  weekday: { locale: "en-GB", options: { weekday: "short", day: "numeric", month: "short" } },
} as const satisfies Record<string, { locale: string; options: Intl.DateTimeFormatOptions }>;

function formatter(zone: string, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const key = `${style} ${zone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(STYLES[style].locale, { timeZone: zone, ...STYLES[style].options });
    formatters.set(key, format);
  }
  return format;
}

/** "08:00" on the wall clock of `zone` at `at`, with the day when it is not `now`'s day there. */
export function wallClock(zone: string, at: Date, now: Date): string {
  const time = formatter(zone, "time").format(at);
  const day = (d: Date) => formatter(zone, "day").format(d);
  if (day(at) === day(now)) return time;
  return `${time} ${formatter(zone, "weekday").format(at)}`;
}
