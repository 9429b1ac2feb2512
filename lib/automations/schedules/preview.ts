import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/errors";
import { audienceSchema } from "@/lib/automations/nodes/triggers/triggers";
import { audienceSize } from "./audience";
import {
  cronProblem,
  DST_SENTENCE,
  nextFireTimes,
  nextScheduleDstDay,
  timeZoneProblem,
} from "@/lib/time/cron";
import { dstRuleSchema, type DstDay } from "@/lib/time/dst";

export const previewInput = z.strictObject({
  cron: z.string().max(200),
  timezone: z.string().max(100),
  audience: audienceSchema.optional(),
  /** The schedule's DST rule (`gap`, `repeat`); left out: gap_end + once. */
  dst: dstRuleSchema.optional(),
  /** How many fire times. Default 5. */
  count: z.number().int().min(1).max(100).default(5),
  /** Start after this instant. Default now. */
  from: z.iso.datetime({ offset: true }).optional(),
});

export interface SchedulePreview {
  /** What is wrong with the schedule, in a sentence, or null. */
  problem: string | null;
  nextFireTimes: string[];
  dst: string;
  /**
   * The next day (within 400 days) on which a time the schedule writes out does not exist or
   * happens twice in its zone, and what happens then under its DST rule; null when none does.
   */
  dstDay: DstDay | null;
  /** Customers the audience matches now; null without an audience. */
  audienceSize: number | null;
}

/** What a schedule would do, before it is published: the same computation the heartbeat uses. */
export async function previewSchedule(tenantId: string, body: unknown): Promise<SchedulePreview> {
  const input = parseOrThrow(previewInput, body, "The schedule preview request is invalid");
  const problem = cronProblem(input.cron) ?? timeZoneProblem(input.timezone);
  const from = input.from ? new Date(input.from) : new Date();
  return {
    problem: problem ? `${problem}.` : null,
    nextFireTimes: problem
      ? []
      : nextFireTimes(input.cron, input.timezone, from, input.count, input.dst).map((d) => d.toISOString()),
    dst: DST_SENTENCE,
    dstDay: problem ? null : nextScheduleDstDay(input.cron, input.timezone, from, input.dst),
    audienceSize: input.audience ? await audienceSize(getDb(), tenantId, input.audience) : null,
  };
}
