import { z } from "zod";
import { integer, paramsObject } from "../params";
import type { NodeDefinition } from "../types";

/**
 * `auto.control.wait`: pause the run for a while, then carry on with what follows. The node only
 * says how long; the engine persists the wait and a job resumes the run (a node never sleeps).
 *
 * The schema has no upper bound on purpose: a stored graph with a wait over 30 days must still
 * parse, so validation can say "A wait can be at most 30 days." instead of "params are invalid",
 * and the resume time is clamped to 30 days when it is scheduled (see `resume-at.ts`).
 */

export const WAIT_UNITS = ["minutes", "hours", "days"] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number];

/** How long one of each unit lasts. */
export const WAIT_UNIT_MS: Readonly<Record<WaitUnit, number>> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
};

export const waitParams = paramsObject({
  duration: integer(1),
  unit: z.enum(WAIT_UNITS, { error: `must be one of ${WAIT_UNITS.join(", ")}` }),
});
export type WaitParams = z.infer<typeof waitParams>;

/** A wait resumes at most this long after it began ("A wait can be at most 30 days."). */
export const MAX_WAIT_MS = 30 * 86_400_000;

/** The duration a wait node asks for, in milliseconds, before clamping (validation compares it with `MAX_WAIT_MS`). */
export function waitDurationMs(params: WaitParams): number {
  return params.duration * WAIT_UNIT_MS[params.unit];
}

/** "1 hour", "30 minutes", "2 days". */
export function describeWait({ duration, unit }: WaitParams): string {
  return `${duration} ${duration === 1 ? unit.slice(0, -1) : unit}`;
}

export const wait = {
  type: "auto.control.wait",
  category: "wait",
  label: "Wait",
  description:
    "Pauses the flow for a number of minutes, hours or days (at most 30 days), then carries on. The record is looked at again when the wait ends, so the steps after it see it as it is then.",
  params: waitParams,
  defaultParams: () => ({ duration: 1, unit: "hours" }),
  handles: { in: true, out: ["out"] },
  summarise: (params) => `Wait ${describeWait(params)}`,
  // A draft's 0-day (or blank) wait would otherwise read just "Wait", as if it were complete.
  summariseDraft: ({ duration }) =>
    typeof duration === "number" && duration >= 1 ? undefined : "Wait (set a duration)",
  check: (params) => (waitDurationMs(params) > MAX_WAIT_MS ? ["A wait can be at most 30 days."] : []),
} satisfies NodeDefinition<typeof waitParams>;
