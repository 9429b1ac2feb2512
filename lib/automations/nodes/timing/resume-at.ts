import { Cron } from "croner";
import type { z } from "zod";
import { approval } from "./approval";
import { waitForEvent } from "./wait-for-event";
import { MAX_WAIT_MS, wait, waitDurationMs } from "./wait";
import { waitUntil, type WaitUntilParams } from "./wait-until";
import { compileSchedule } from "../../../time/cron";
import { isDefaultDst } from "../../../time/dst";

/**
 * When a timed wait resumes. Pure and browser-safe: the editor shows "resumes Mon 9:00", the
 * server schedules the resume job at the same instant.
 *
 * Every resume time is clamped to [from + 1 minute, from + 30 days] (SPEC §2): a wait never
 * resumes in the same breath it paused, and never further out than validation allows, even for
 * a stored graph whose wait is longer than that.
 */

/** The shortest pause: a wait resumes at least this long after it started. */
export const MIN_WAIT_MS = 60_000;
/** The longest pause: 30 days. A longer wait is a ready issue and is clamped to this when scheduled. */
// The longest wait and a wait node's duration are its own (timing/wait.ts); read here too.
export { MAX_WAIT_MS, waitDurationMs };

/**
 * The first instant strictly after `from` at which the local time in `params.timezone` is
 * `params.time`, on one of `params.weekdays` (ISO: 1 = Monday … 7 = Sunday) or any day without
 * them. Not clamped.
 *
 * Time-zone arithmetic is croner's. Its standard cron day-of-week numbering (0 or 7 = Sunday,
 * 1 = Monday … 6 = Saturday) takes ISO weekday numbers unchanged. A single minute and hour make
 * the pattern a "fixed-time job", which croner (like Vixie cron) schedules across DST as follows,
 * and so does Tillflow:
 *
 * - A local time that does not exist that day (spring forward: 02:30 in America/New_York on
 *   2026-03-08) resumes once, at the first valid instant after the gap on the same day (03:00 EDT).
 * - A local time that occurs twice (fall back: 01:30 in America/New_York on 2026-11-01) resumes
 *   once, at its first occurrence (01:30 EDT); the second occurrence is not a resume time. So a
 *   wait that starts inside the repeated hour, after the first 01:30, resumes at 01:30 the next
 *   allowed day: one resume per local date, never two.
 *
 * Both are asserted in `resume-at.test.ts`, so a croner upgrade that changed them would fail there.
 *
 * That is the default DST rule; a step with another `dst` rule (`lib/time/dst.ts`: skip or shift
 * the gap, resume at both repeats) is resolved by the same code as a schedule's.
 */
export function nextWallClock(params: WaitUntilParams, from: Date): Date {
  // The schema guarantees "HH:MM".
  const hours = Number(params.time.slice(0, 2));
  const minutes = Number(params.time.slice(3, 5));
  const weekdays = params.weekdays && params.weekdays.length > 0 ? params.weekdays.join(",") : "*";
  if (!isDefaultDst(params.dst)) {
    const ruled = compileSchedule(`${minutes} ${hours} * * ${weekdays}`, params.timezone, params.dst);
    const at = ruled?.next(from);
    if (!at)
      throw new Error(`No time after ${from.toISOString()} matches ${params.time} in ${params.timezone}.`);
    return at;
  }
  const cron = new Cron(`${minutes} ${hours} * * ${weekdays}`, {
    timezone: params.timezone,
    mode: "5-part",
    // The default, spelled out: a single minute and hour are a fixed-time job (DST rules above).
    fixedTimeRule: "single-value",
  });
  const next = cron.nextRun(from);
  // Every pattern built here matches at least once a week, so croner always finds a next run.
  if (!next)
    throw new Error(`No time after ${from.toISOString()} matches ${params.time} in ${params.timezone}.`);
  return next;
}

/** `at`, moved into [from + 1 minute, from + 30 days]. */
export function clampResumeAt(at: Date, from: Date): Date {
  const start = from.getTime();
  const time = at.getTime();
  if (Number.isNaN(time) || Number.isNaN(start)) throw new RangeError("A resume time needs valid dates.");
  return new Date(Math.min(Math.max(time, start + MIN_WAIT_MS), start + MAX_WAIT_MS));
}

/** Params checked again here: a stored graph outlives the code that validated it. */
function parse<S extends z.ZodType>(schema: S, label: string, params: unknown): z.infer<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    [issue.path.map(String).join("."), issue.message].filter(Boolean).join(" "),
  );
  throw new Error(`${label}: ${problems.join("; ")}.`);
}

/**
 * When a timed wait node that starts at `from` resumes, clamped (see `clampResumeAt`). Throws for
 * a node that is not a timed wait or whose params are invalid, with a sentence for the run history.
 */
export function resumeAtFor(node: { type: string; params?: unknown }, from: Date): Date {
  switch (node.type) {
    case wait.type: {
      const params = parse(wait.params, wait.label, node.params ?? {});
      // Clamp the duration before adding it, so an absurdly long wait cannot overflow the Date range.
      const ms = Math.min(Math.max(waitDurationMs(params), MIN_WAIT_MS), MAX_WAIT_MS);
      return clampResumeAt(new Date(from.getTime() + ms), from);
    }
    case approval.type: {
      // A person's decision resumes it sooner; this is when it times out.
      const params = parse(approval.params, approval.label, node.params ?? {});
      return clampResumeAt(new Date(from.getTime() + params.timeoutHours * 3_600_000), from);
    }
    case waitForEvent.type: {
      // The event resumes it sooner; this is when it times out.
      const params = parse(waitForEvent.params, waitForEvent.label, node.params ?? {});
      return clampResumeAt(new Date(from.getTime() + params.timeoutHours * 3_600_000), from);
    }
    case waitUntil.type: {
      const params = parse(waitUntil.params, waitUntil.label, node.params ?? {});
      return clampResumeAt(nextWallClock(params, from), from);
    }
    default:
      throw new Error(`'${node.type}' is not a timed wait.`);
  }
}
