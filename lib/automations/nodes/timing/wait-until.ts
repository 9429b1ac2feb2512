import { z } from "zod";
import { integer, paramsObject, text } from "../params";
import { isTimeZone, localTimeZone } from "../../../time/zones";
import { dstRuleSchema } from "../../../time/dst";
import type { NodeDefinition } from "../types";

/**
 * `auto.control.wait_until`: pause the run until a time of day in a time zone, optionally only
 * on some weekdays ("9:00 the next working day"). When it resumes is computed by
 * `nextWallClock` in `resume-at.ts`, which also states what happens across DST changes.
 *
 * Weekdays are ISO numbers: 1 = Monday … 7 = Sunday. Without weekdays, any day will do.
 */

export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Short weekday names by ISO number, for summaries. */
export const WEEKDAY_NAMES: Readonly<Record<number, string>> = {
  1: "Mon",
  2: "Tue",
  3: "Wed",
  4: "Thu",
  5: "Fri",
  6: "Sat",
  7: "Sun",
};

const WORKING_DAYS = [1, 2, 3, 4, 5] as const;

export const waitUntilParams = paramsObject({
  time: text().regex(TIME_OF_DAY, "must be a time of day such as 09:00 or 18:30 (24-hour)"),
  timezone: text().refine(isTimeZone, "must be a time zone such as Europe/Paris or UTC"),
  weekdays: z
    .array(integer(1, 7), { error: "must be a list of weekdays" })
    .min(1, "must name at least one day; leave it out for any day")
    .refine((days) => new Set(days).size === days.length, "names a day twice")
    .optional(),
  /** What happens on the days clocks change (`lib/time/dst.ts`); left out: gap_end + once. */
  dst: dstRuleSchema.optional(),
});
export type WaitUntilParams = z.infer<typeof waitUntilParams>;

/** "09:00" → "9:00": the hour as people say it. */
function clock(time: string): string {
  return time.replace(/^0(\d)/, "$1");
}

/** "the next working day", "on Mon, Wed", or nothing when any day will do. */
function days(weekdays: readonly number[] | undefined): string {
  if (!weekdays) return "";
  const sorted = [...new Set(weekdays)].sort((a, b) => a - b);
  if (sorted.length === 7) return "";
  if (sorted.join(",") === WORKING_DAYS.join(",")) return " the next working day";
  return ` on ${sorted.map((day) => WEEKDAY_NAMES[day] ?? String(day)).join(", ")}`;
}

export const waitUntil = {
  type: "auto.control.wait_until",
  category: "wait",
  label: "Wait until",
  description:
    "Pauses the flow until a time of day in a time zone, optionally only on some days of the week (such as 9:00 the next working day), then carries on.",
  params: waitUntilParams,
  defaultParams: () => ({ time: "09:00", timezone: localTimeZone(), weekdays: [...WORKING_DAYS] }),
  timeZoneParam: "timezone",
  handles: { in: true, out: ["out"] },
  summarise: ({ time, timezone, weekdays }) => `Wait until ${clock(time)}${days(weekdays)} (${timezone})`,
} satisfies NodeDefinition<typeof waitUntilParams>;
