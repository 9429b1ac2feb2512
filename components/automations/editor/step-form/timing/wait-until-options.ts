import { WEEKDAY_NAMES } from "@/lib/automations/nodes/timing/wait-until";
import { DAY_NAMES } from "@/lib/time/schedule-sentence";

/** Choices of the "Wait until" form: weekdays (its zones are `zone-picker.tsx`'s). Pure. */

/** ISO weekdays, Monday first, with the short name shown and the long name read out. */
export const WEEKDAYS: readonly { day: number; short: string; long: string }[] = [1, 2, 3, 4, 5, 6, 7].map(
  (day) => ({
    day,
    short: WEEKDAY_NAMES[day] ?? String(day),
    long: DAY_NAMES[day as keyof typeof DAY_NAMES],
  }),
);

/**
 * The weekdays after ticking (`on`) or unticking `day`: sorted, each once. Unticking the last
 * leaves `undefined`, which the node reads as "any day" (its schema refuses an empty list).
 */
export function toggleWeekday(
  days: readonly number[] | undefined,
  day: number,
  on: boolean,
): number[] | undefined {
  const next = new Set(days ?? []);
  if (on) next.add(day);
  else next.delete(day);
  return next.size === 0 ? undefined : [...next].sort((a, b) => a - b);
}

/** The weekdays of stored params, if they are a list of numbers; anything else counts as none. */
export function readWeekdays(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const days = value.filter((day): day is number => typeof day === "number");
  return days.length > 0 ? days : undefined;
}
