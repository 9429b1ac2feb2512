import { Cron } from "croner";
import { isTimeZone } from "@/lib/time/zones";
import {
  dstRule,
  isDefaultDst,
  nextDstDay,
  wallTimeInstants,
  type DstDay,
  type DstInput,
} from "@/lib/time/dst";

/**
 * Cron schedules in a time zone. Pure and browser-safe: the schedule trigger's params schema, the
 * editor's preview, the CLI and the heartbeat all call these, so what the merchant is shown is
 * exactly when it fires.
 *
 * Parsing and time-zone arithmetic are croner's (never hand-parsed): five fields (minute, hour,
 * day of month, month, day of week) with `*`, `*\/n`, lists, ranges and names (`MON-FRI`,
 * `JAN,JUL`); when both day fields are restricted a day matching either one fires (the classic
 * cron OR rule: `0 9 13 * 5` is the 13th and every Friday).
 *
 * Daylight saving time follows croner's `no-wildcard` fixed-time rule, which is Vixie cron's:
 *
 * - A schedule whose minute and hour are written out (`30 2 * * *`, `0 9,17 * * 1-5`) is a
 *   **fixed-time** schedule. A local time that does not exist that day (clocks spring forward
 *   over it) fires once, at the first valid instant after the gap (02:30 in New York on
 *   2026-03-08 fires at 03:00 EDT). A local time that occurs twice (clocks fall back) fires once,
 *   at its first occurrence.
 * - A schedule that repeats through the hours (`*\/15 * * * *`, `0 * * * *`) is an **interval**
 *   schedule and keeps its rhythm in real time: it skips the minutes that do not exist and runs in
 *   both copies of a repeated hour, so "every 15 minutes" stays every 15 minutes.
 *
 * That is the default DST rule (`gap_end` + `once`). A merchant may choose another for a
 * fixed-time schedule (`dst` in `dst.ts`): then croner only lists the schedule's wall-clock times
 * (read as UTC, where no clock changes) and `dst.ts` turns each into zero, one or two instants.
 * Without a rule, or with the default one, fire times are croner's alone, exactly as before.
 */

/** The sentence shown where the merchant sets a schedule. */
export const DST_SENTENCE =
  "When clocks change, a time written out (such as 02:30) that is skipped runs once at the first valid time after the jump, and one that happens twice runs once, the first time. Schedules that repeat through the hours (every 15 minutes, every hour) keep their rhythm in real time.";

/** Said of an expression without exactly five fields. */
export const FIVE_FIELDS = "must have five fields (minute hour day month weekday), such as 0 9 * * 1";

/** Whether an expression has five fields (the schema reports that first, in its own words). */
export function hasFiveFields(expression: string): boolean {
  return fieldsOf(expression).length === 5;
}

const FIELDS = [
  { name: "minute", range: "0–59" },
  { name: "hour", range: "0–23" },
  { name: "day of month", range: "1–31" },
  { name: "month", range: "1–12 or JAN–DEC" },
  { name: "day of week", range: "0–7 (0 and 7 are Sunday) or SUN–SAT" },
] as const;

function build(expression: string, timezone?: string): Cron {
  return new Cron(expression, {
    mode: "5-part",
    fixedTimeRule: "no-wildcard",
    // The classic OR of day-of-month and day-of-week (croner's default, spelled out).
    domAndDow: false,
    ...(timezone ? { timezone } : {}),
    paused: true,
  });
}

/** A clock that never changes, to list a schedule's wall-clock times. */
function buildWall(expression: string): Cron {
  return new Cron(expression, {
    mode: "5-part",
    fixedTimeRule: "no-wildcard",
    domAndDow: false,
    utcOffset: 0,
    paused: true,
  });
}

/**
 * Whether the minute and hour are written out (no `*` and no step): croner's `no-wildcard`
 * fixed-time rule, to which the DST rule applies.
 */
export function isFixedTime(expression: string): boolean {
  const [minute = "*", hour = "*"] = fieldsOf(expression);
  return ![minute, hour].some((field) => field.includes("*") || field.includes("/"));
}

function fieldsOf(expression: string): string[] {
  return expression.trim().split(/\s+/).filter(Boolean);
}

/**
 * What is wrong with a cron expression, as a sentence a merchant can act on
 * ("'0 25 * * *': hour must be 0–23."), or null when croner accepts it and it fires at all.
 * Each field is tried alone (the others `*`) so the sentence can name the field croner refused.
 */
export function cronProblem(expression: string): string | null {
  const shown = `'${expression.trim()}'`;
  const fields = fieldsOf(expression);
  if (fields.length !== 5) {
    return `${shown}: ${FIVE_FIELDS}`;
  }
  try {
    build(fields.join(" "));
  } catch {
    for (const [index, field] of FIELDS.entries()) {
      const probe = fields.map((value, i) => (i === index ? value : "*")).join(" ");
      try {
        build(probe);
      } catch {
        return `${shown}: ${field.name} must be ${field.range}, or a list, range or */step of them`;
      }
    }
    return `${shown} is not a cron expression Tillflow understands`;
  }
  // A valid pattern that never matches (the 30th of February) would never fire.
  if (!build(fields.join(" "), "UTC").nextRun(new Date(Date.UTC(2000, 0, 1)))) {
    return `${shown} never happens (no such date)`;
  }
  return null;
}

/** A time-zone problem as a sentence, or null. */
export function timeZoneProblem(timezone: string): string | null {
  return isTimeZone(timezone)
    ? null
    : `'${timezone}' is not a time zone; use one such as Europe/Paris or UTC`;
}

/** A schedule compiled once, for callers that step through many fire times (the heartbeat). */
export interface CompiledSchedule {
  /** The next fire time strictly after `from`, or null if there is none. */
  next(from: Date): Date | null;
}

const HOUR = 3_600_000;
/** Past this, a schedule whose every time is skipped is taken to fire no more. */
const HORIZON_MS = 10 * 366 * 86_400_000;

/**
 * A fixed-time schedule under a DST rule. Each wall-clock time W fires at instants within
 * [W − 14 h, W + 12 h] (offsets lie in −12 h … +14 h), so the wall-clock times after
 * `from − 13 h` are looked at until one lies more than 15 h past the earliest fire found.
 */
function ruledNext(wall: Cron, timezone: string, dst: DstInput, from: Date): Date | null {
  const rule = dstRule(dst);
  const start = from.getTime();
  let best: number | null = null;
  let cursor: Date | null = new Date(start - 13 * HOUR);
  while (cursor) {
    const at: Date | null = wall.nextRun(cursor);
    if (!at) break;
    const time = at.getTime();
    if (best !== null && time - 15 * HOUR > best) break;
    if (time - start > HORIZON_MS) break;
    for (const instant of wallTimeInstants(timezone, time, rule)) {
      if (instant > start && (best === null || instant < best)) best = instant;
    }
    cursor = at;
  }
  return best === null ? null : new Date(best);
}

/**
 * Compiles a schedule, or returns null for an invalid expression or zone. `dst` is the
 * merchant's DST rule; without it (or with the default one) croner decides alone, as always.
 */
export function compileSchedule(
  expression: string,
  timezone: string,
  dst?: DstInput | null,
): CompiledSchedule | null {
  if (cronProblem(expression) || timeZoneProblem(timezone)) return null;
  const pattern = fieldsOf(expression).join(" ");
  if (isDefaultDst(dst) || !isFixedTime(pattern)) {
    const cron = build(pattern, timezone);
    return { next: (from) => cron.nextRun(from) };
  }
  const wall = buildWall(pattern);
  return { next: (from) => ruledNext(wall, timezone, dst ?? {}, from) };
}

/**
 * The first `count` fire times strictly after `from`, as instants. Empty for an invalid
 * expression or zone (the caller shows `cronProblem` instead).
 */
export function nextFireTimes(
  expression: string,
  timezone: string,
  from: Date,
  count = 5,
  dst?: DstInput | null,
): Date[] {
  if (cronProblem(expression) || timeZoneProblem(timezone)) return [];
  if (isDefaultDst(dst) || !isFixedTime(expression)) {
    return build(fieldsOf(expression).join(" "), timezone).nextRuns(count, from);
  }
  const compiled = compileSchedule(expression, timezone, dst);
  const times: Date[] = [];
  let at: Date | null = from;
  while (compiled && times.length < count && (at = compiled.next(at))) times.push(at);
  return times;
}

/** The next fire time strictly after `from`, or null for an invalid schedule. */
export function nextFireAfter(
  expression: string,
  timezone: string,
  from: Date,
  dst?: DstInput | null,
): Date | null {
  return nextFireTimes(expression, timezone, from, 1, dst)[0] ?? null;
}

/**
 * The next day after `from` on which a time the schedule writes out does not exist or happens
 * twice in its zone, with what happens then under `dst`; null when there is none within
 * `withinDays` (no DST there, an interval schedule, or an invalid one).
 */
export function nextScheduleDstDay(
  expression: string,
  timezone: string,
  from: Date,
  dst?: DstInput | null,
  withinDays = 400,
  only?: DstDay["kind"],
): DstDay | null {
  if (cronProblem(expression) || timeZoneProblem(timezone) || !isFixedTime(expression)) return null;
  const wall = buildWall(fieldsOf(expression).join(" "));
  const wallTimes = (after: number, until: number): number[] => {
    const times: number[] = [];
    for (let at = wall.nextRun(new Date(after)); at && at.getTime() <= until; at = wall.nextRun(at)) {
      times.push(at.getTime());
    }
    return times;
  };
  return nextDstDay(timezone, wallTimes, dstRule(dst), from, withinDays, only);
}

/** An instant as the wall clock of `timezone` reads it: "Sun 8 Mar 2026, 03:00 EDT". */
export function formatInZone(at: Date, timezone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: timezone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(at);
}
