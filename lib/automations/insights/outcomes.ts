import type { RunStatus } from "@/lib/db/schema";

/**
 * Outcomes: a run's status as insights group it (browser-safe, shared by the queries and the
 * charts): succeeded · nothing (succeeded having taken no action: "Nothing to do", SPEC §2) ·
 * partial · failed · cancelled · waiting (held by a cap too: it waits for a person) · running
 * (queued and running together: the run is in progress).
 */
export const OUTCOMES = [
  "succeeded",
  "nothing",
  "partial",
  "failed",
  "cancelled",
  "waiting",
  "running",
] as const;
export type Outcome = (typeof OUTCOMES)[number];
export type OutcomeCounts = Record<Outcome, number>;

/** One shop day (YYYY-MM-DD) and its runs by outcome. */
export interface DayCounts {
  day: string;
  counts: OutcomeCounts;
}

/**
 * The outcome a run is counted under: its status, but a succeeded run that took no action
 * (`actionsTaken` 0) is "nothing".
 */
export function outcomeOf(status: RunStatus, actionsTaken: number | null = null): Outcome {
  if (status === "succeeded" && actionsTaken === 0) return "nothing";
  if (status === "held") return "waiting";
  // A held-out customer's run took no action by design: counted with "Nothing to do", never as a
  // failure or a success (its own badge on the runs list; docs/performance-of-automations.md).
  if (status === "held_out") return "nothing";
  return status === "queued" || status === "running" ? "running" : status;
}

export function emptyCounts(): OutcomeCounts {
  return { succeeded: 0, nothing: 0, partial: 0, failed: 0, cancelled: 0, waiting: 0, running: 0 };
}

/** Runs with a failed action: failed and partly failed alike (SPEC §2 "Settling"). */
export function failuresOf(counts: OutcomeCounts): number {
  return counts.failed + counts.partial;
}

/**
 * Succeeded out of the runs that finished acting (succeeded, partial, failed); runs with nothing
 * to do are left out. Null when no run finished acting.
 */
export function successRateOf(counts: OutcomeCounts): number | null {
  const finished = counts.succeeded + counts.partial + counts.failed;
  return finished > 0 ? counts.succeeded / finished : null;
}

export function totalOf(counts: OutcomeCounts): number {
  return OUTCOMES.reduce((sum, o) => sum + counts[o], 0);
}
