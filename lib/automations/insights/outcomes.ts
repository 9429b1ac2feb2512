import type { RunStatus } from "@/lib/db/schema";

/**
 * Outcomes: a run's status as insights group it (browser-safe, shared by the queries and the
 * charts): succeeded · partial · failed · cancelled · waiting · running (queued and running
 * together: the run is in progress).
 */
export const OUTCOMES = ["succeeded", "partial", "failed", "cancelled", "waiting", "running"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export type OutcomeCounts = Record<Outcome, number>;

/** One shop day (YYYY-MM-DD) and its runs by outcome. */
export interface DayCounts {
  day: string;
  counts: OutcomeCounts;
}

/** The outcome a run status is counted under. */
export function outcomeOf(status: RunStatus): Outcome {
  return status === "queued" || status === "running" ? "running" : status;
}

export function emptyCounts(): OutcomeCounts {
  return { succeeded: 0, partial: 0, failed: 0, cancelled: 0, waiting: 0, running: 0 };
}

export function totalOf(counts: OutcomeCounts): number {
  return OUTCOMES.reduce((sum, o) => sum + counts[o], 0);
}
