import { z } from "zod";
import type { AutomationCaps } from "@/lib/db/schema";

/**
 * An automation's caps as a person or client sets them (`PUT /api/v1/automations/:id/caps`, the
 * Held tab's form): each limit is optional, `null` takes it off. Browser-safe.
 */
export const capsInput = z.strictObject({
  maxRunsPerHour: z
    .int("Runs per hour must be a whole number.")
    .min(1, "Runs per hour must be at least 1.")
    .max(100_000, "Runs per hour can be at most 100,000.")
    .nullable()
    .optional(),
  maxPerRecord: z
    .strictObject({
      count: z
        .int("Runs per record must be a whole number.")
        .min(1, "Runs per record must be at least 1.")
        .max(1_000, "Runs per record can be at most 1,000."),
      hours: z
        .int("The hours of a per-record cap must be a whole number.")
        .min(1, "A per-record cap counts over at least 1 hour.")
        .max(720, "A per-record cap counts over at most 720 hours (30 days)."),
    })
    .nullable()
    .optional(),
  pauseOnStorm: z.boolean("Pause on storm must be true or false.").optional(),
});
export type CapsInput = z.infer<typeof capsInput>;

/** The caps to store from an input: `null` when no limit is left (pausing alone limits nothing). */
export function capsFrom(input: CapsInput): AutomationCaps | null {
  const caps: AutomationCaps = {};
  if (input.maxRunsPerHour != null) caps.maxRunsPerHour = input.maxRunsPerHour;
  if (input.maxPerRecord != null) caps.maxPerRecord = input.maxPerRecord;
  if (caps.maxRunsPerHour === undefined && caps.maxPerRecord === undefined) return null;
  if (input.pauseOnStorm && caps.maxRunsPerHour !== undefined) caps.pauseOnStorm = true;
  return caps;
}

const runs = (n: number) => (n === 1 ? "1 run" : `${n.toLocaleString("en-US")} runs`);
const hours = (n: number) => (n === 1 ? "hour" : `${n} hours`);

/** What every hourly hold's reason says, and only theirs: how a storm's held runs are found. */
export const HOURLY_HOLD_MARK = "in the last hour, its cap";

/** The reason a run held by the hourly cap shows on its page and in the Held list. */
export const hourlyHeldReason = (max: number) =>
  `Held: this automation already started ${runs(max)} ${HOURLY_HOLD_MARK}.`;

/** The reason a run held by the per-record cap shows. */
export const perRecordHeldReason = (cap: { count: number; hours: number }) =>
  `Held: this automation already ran ${cap.count === 1 ? "once" : `${cap.count} times`} for this record in the last ${hours(cap.hours)}, its cap.`;

/** The caps in one sentence: "At most 5 runs an hour and 1 run per record every 16 hours; pauses on a storm." */
export function capsSentence(caps: AutomationCaps | null): string {
  if (!caps) return "No caps: every run starts.";
  const parts: string[] = [];
  if (caps.maxRunsPerHour !== undefined) parts.push(`${runs(caps.maxRunsPerHour)} an hour`);
  if (caps.maxPerRecord)
    parts.push(`${runs(caps.maxPerRecord.count)} per record every ${hours(caps.maxPerRecord.hours)}`);
  const pause = caps.pauseOnStorm ? "; the automation pauses when the hourly cap is passed" : "";
  return `At most ${parts.join(" and ")}${pause}. Runs past a cap are held for you to release or discard.`;
}
