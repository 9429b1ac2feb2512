import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationRuns, type RunStatus } from "@/lib/db/schema";

export interface UntilOptions {
  /** Give up after this long. */
  timeoutMs: number;
  /** Time between reads; 50 ms unless given. */
  intervalMs?: number;
  /** What is awaited, for the failure message: "run 7 to be succeeded". */
  what: string;
}

/**
 * Reads `read()` every `intervalMs` until `done` holds for what it read, and returns that reading.
 * A read that throws counts as "not yet". After `timeoutMs` it fails with what it was waiting for
 * and the last reading (or error) it saw. The tests' one poller: a run's status, a row count, a
 * job's lock.
 */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { timeoutMs, intervalMs = 50, what }: UntilOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = "nothing (no read finished)";
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = describe(value);
    } catch (error) {
      last = `an error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}; last saw ${last}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
}

export const TERMINAL: RunStatus[] = ["succeeded", "partial", "failed", "cancelled", "held_out"];

/** Waits until the run's status is one of `statuses` and returns the run's row as it was then. */
export async function runInStatus(
  runId: string,
  statuses: RunStatus[],
  { timeoutMs = 15_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
) {
  return until(
    async () => (await getDb().select().from(automationRuns).where(eq(automationRuns.id, runId)))[0],
    (run) => run !== undefined && statuses.includes(run.status),
    { timeoutMs, intervalMs, what: `run ${runId} to be ${statuses.join(" or ")}` },
  ).then((run) => run!);
}
