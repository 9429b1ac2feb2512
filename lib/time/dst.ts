import { z } from "zod";

/**
 * The merchant's rule for the two kinds of day a clock change makes (issue 53). Pure and
 * browser-safe: the schedule trigger, the Wait until step, the heartbeat, the editor's preview and
 * `tillflow cron next` all resolve local times through here, so what the merchant is shown is
 * exactly when it fires.
 *
 * - **gap** (spring forward: 02:30 does not exist in Paris on 29 March 2026):
 *   `gap_end` fires when the gap ends (03:00 CEST), `shift` keeps the offset from before the gap
 *   (RFC 5545: 02:30 CET = 03:30 CEST), `skip` does not fire that day. A gap that runs up to
 *   midnight (Nuuk, 23:00 → 00:00) ends the next day, so under `gap_end` that day's time does not
 *   fire: croner's and Vixie cron's rule, kept so no schedule moves.
 * - **repeat** (fall back: 02:30 happens twice in Paris on 25 October 2026): `once` fires at the
 *   first 02:30, `twice` at both.
 *
 * The default, `gap_end` + `once`, is the rule Tillflow always had (croner's fixed-time rule), and
 * a schedule or wait without a `dst` setting keeps being computed by croner alone, unchanged.
 * The rule only concerns times written out (`30 2 * * *`); schedules that repeat through the
 * hours (`*\/15 * * * *`) keep their rhythm in real time whatever it says.
 */

export const DST_GAPS = ["gap_end", "shift", "skip"] as const;
export const DST_REPEATS = ["once", "twice"] as const;
export type DstGap = (typeof DST_GAPS)[number];
export type DstRepeat = (typeof DST_REPEATS)[number];
export interface DstRule {
  gap: DstGap;
  repeat: DstRepeat;
}

export const DEFAULT_DST: DstRule = { gap: "gap_end", repeat: "once" };

/** The `dst` param of a schedule trigger or a Wait until step; either half may be left out. */
export const dstRuleSchema = z.strictObject(
  {
    gap: z
      .enum(DST_GAPS, { error: "must be gap_end, shift or skip" })
      .optional()
      .describe("when the time does not exist (spring forward)"),
    repeat: z
      .enum(DST_REPEATS, { error: "must be once or twice" })
      .optional()
      .describe("when the time happens twice (fall back)"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `${issue.keys.map((key) => `'${key}'`).join(", ")} is not part of a DST rule (gap, repeat)`
        : undefined,
  },
);
export type DstInput = z.infer<typeof dstRuleSchema>;

/** A rule with its defaults filled in. */
export function dstRule(input?: DstInput | null): DstRule {
  return { gap: input?.gap ?? DEFAULT_DST.gap, repeat: input?.repeat ?? DEFAULT_DST.repeat };
}

export function isDefaultDst(input?: DstInput | null): boolean {
  const rule = dstRule(input);
  return rule.gap === DEFAULT_DST.gap && rule.repeat === DEFAULT_DST.repeat;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at `at`, in milliseconds (wall clock minus UTC), from Intl's "GMT+05:45". */
export function utcOffsetMs(timezone: string, at: number): number {
  let format = formatters.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: timezone, timeZoneName: "longOffset" });
    formatters.set(timezone, format);
  }
  const text = format.format(at);
  const sign = text.lastIndexOf("GMT") + 3;
  if (sign >= text.length) return 0;
  const [hours = 0, minutes = 0, seconds = 0] = text
    .slice(sign + 1)
    .split(":")
    .map(Number);
  const ms = ((hours * 60 + minutes) * 60 + seconds) * 1000;
  return text[sign] === "-" ? -ms : ms;
}

/** Changes found so far, by zone: a heartbeat or a preview asks about the same ones again. */
const knownChanges = new Map<string, number[]>();

/** The first second at which the offset is no longer the one at `lo` (a change lies in (lo, hi]). */
function changeBetween(timezone: string, lo: number, hi: number): number {
  const known = knownChanges.get(timezone) ?? [];
  const found = known.find((at) => at > lo && at <= hi);
  if (found !== undefined) return found;
  const at = bisect(timezone, lo, hi);
  if (known.length > 500) known.shift();
  known.push(at);
  knownChanges.set(timezone, known);
  return at;
}

function bisect(timezone: string, lo: number, hi: number): number {
  const before = utcOffsetMs(timezone, lo);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (utcOffsetMs(timezone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** What a wall-clock time is on its day: one instant, none (a gap) or two (a repeat). */
export type WallTime =
  | { kind: "single"; at: number }
  | {
      kind: "gap";
      /** When the gap ends, or null when it ends on the next day (a gap that runs to midnight). */
      end: number | null;
      /** The time read with the offset before the gap. */
      shifted: number;
    }
  | { kind: "repeat"; first: number; second: number };

/**
 * The instants at which the wall clock of `timezone` reads `wall` (a wall-clock time written as
 * if it were UTC milliseconds). Offsets lie within −12 h … +14 h, so every such instant lies within
 * a day of `wall`, where the zone changes offset at most once.
 */
export function resolveWallTime(timezone: string, wall: number): WallTime {
  const early = utcOffsetMs(timezone, wall - 15 * HOUR);
  const late = utcOffsetMs(timezone, wall + 13 * HOUR);
  const earlyAt = wall - early;
  if (early === late) return { kind: "single", at: earlyAt };
  const lateAt = wall - late;
  const earlyFits = utcOffsetMs(timezone, earlyAt) === early;
  const lateFits = utcOffsetMs(timezone, lateAt) === late;
  if (earlyFits && lateFits) {
    return { kind: "repeat", first: Math.min(earlyAt, lateAt), second: Math.max(earlyAt, lateAt) };
  }
  if (earlyFits) return { kind: "single", at: earlyAt };
  if (lateFits) return { kind: "single", at: lateAt };
  const end = changeBetween(timezone, lateAt, earlyAt);
  const sameDay = Math.floor((end + late) / DAY) === Math.floor(wall / DAY);
  return { kind: "gap", end: sameDay ? end : null, shifted: earlyAt };
}

/** The instants a wall-clock time fires at under `rule`, earliest first. */
export function wallTimeInstants(timezone: string, wall: number, rule: DstRule): number[] {
  const resolved = resolveWallTime(timezone, wall);
  switch (resolved.kind) {
    case "single":
      return [resolved.at];
    case "gap":
      if (rule.gap === "shift") return [resolved.shifted];
      return rule.gap === "gap_end" && resolved.end !== null ? [resolved.end] : [];
    case "repeat":
      return rule.repeat === "twice" ? [resolved.first, resolved.second] : [resolved.first];
  }
}

/** A change of a zone's offset: the instant, and the offsets before and after. */
export interface ZoneChange {
  at: number;
  before: number;
  after: number;
}

/** The zone's offset changes in [from, to), found by sampling each day (no DST lasts less). */
export function zoneChanges(timezone: string, from: number, to: number): ZoneChange[] {
  const changes: ZoneChange[] = [];
  let previous = utcOffsetMs(timezone, from);
  for (let at = from; at < to;) {
    const next = Math.min(at + DAY, to);
    const offset = utcOffsetMs(timezone, next);
    if (offset !== previous) {
      changes.push({ at: changeBetween(timezone, at, next), before: previous, after: offset });
      previous = offset;
    }
    at = next;
  }
  return changes;
}

/** Wall-clock milliseconds → "29 March 2026" and "02:30". */
function wallDate(wall: number): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: "UTC",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(wall);
}
function wallClock(wall: number): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: "UTC",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(wall);
}

/** "Europe/Paris" → "Paris", "America/Argentina/Buenos_Aires" → "Buenos Aires". */
function place(timezone: string): string {
  return (timezone.split("/").pop() ?? timezone).replace(/_/g, " ");
}

/** A day on which a time the schedule names falls in a gap or a repeat, and what happens. */
export interface DstDay {
  kind: "gap" | "repeat";
  /** The local date and time, "2026-03-29T02:30". */
  local: string;
  /** The instants it fires at under the rule (none when skipped). */
  fires: string[];
  /** "On 29 March 2026 02:30 does not exist in Paris: the run moves to 03:00." */
  sentence: string;
}

/** The sentence for a wall-clock time in a gap or repeat under `rule`. */
export function dstDaySentence(
  timezone: string,
  wall: number,
  resolved: Exclude<WallTime, { kind: "single" }>,
  rule: DstRule,
): string {
  const head = `On ${wallDate(wall)} ${wallClock(wall)}`;
  const city = place(timezone);
  if (resolved.kind === "gap") {
    const at = rule.gap === "shift" ? resolved.shifted : rule.gap === "gap_end" ? resolved.end : null;
    if (at === null) return `${head} does not exist in ${city}: the run is skipped that day.`;
    return `${head} does not exist in ${city}: the run moves to ${wallClock(at + utcOffsetMs(timezone, at))}.`;
  }
  return rule.repeat === "twice"
    ? `${head} happens twice in ${city}: the run happens at both.`
    : `${head} happens twice in ${city}: the run happens once, at the first.`;
}

/**
 * The first day after `from` (within `withinDays`) on which one of the wall-clock times that
 * `wallTimes` yields falls in a gap or repeat of the zone, with what happens under `rule`; null
 * when none does (the zone has no DST, or the times miss its changes).
 *
 * `wallTimes(after, until)` lists the schedule's wall-clock times in (after, until], as wall-clock
 * milliseconds.
 */
export function nextDstDay(
  timezone: string,
  wallTimes: (after: number, until: number) => number[],
  rule: DstRule,
  from: Date,
  withinDays = 400,
  only?: DstDay["kind"],
): DstDay | null {
  const start = from.getTime();
  for (const change of zoneChanges(timezone, start, start + withinDays * DAY)) {
    // The wall-clock range the change skips (gap) or repeats.
    const lo = change.at + Math.min(change.before, change.after);
    const hi = change.at + Math.max(change.before, change.after);
    for (const wall of wallTimes(lo - 1, hi - 1)) {
      if (wall < lo || wall >= hi) continue;
      const resolved = resolveWallTime(timezone, wall);
      if (resolved.kind === "single" || (only && resolved.kind !== only)) continue;
      return {
        kind: resolved.kind,
        local: new Date(wall).toISOString().slice(0, 16),
        fires: wallTimeInstants(timezone, wall, rule).map((at) => new Date(at).toISOString()),
        sentence: dstDaySentence(timezone, wall, resolved, rule),
      };
    }
  }
  return null;
}
