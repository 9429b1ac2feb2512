import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { workerHeartbeats } from "@/lib/db/schema";

/** A worker is considered alive when it has beaten within this window. */
export const ALIVE_WITHIN_MS = 30_000;
/**
 * A worker silent for longer than this is presumed dead and its jobs are released. Default one
 * minute; `TILLFLOW_WORKER_DEAD_AFTER_MS` shortens it for crash tests.
 */
export const DEAD_AFTER_MS = Number(process.env.TILLFLOW_WORKER_DEAD_AFTER_MS ?? 60_000);
export const BEAT_EVERY_MS = 5_000;

export async function registerWorker(workerId: string, hostname: string, pid: number): Promise<void> {
  await getDb()
    .insert(workerHeartbeats)
    .values({ workerId, hostname, pid })
    .onConflictDoUpdate({
      target: workerHeartbeats.workerId,
      set: { lastSeenAt: new Date(), stoppedAt: null },
    });
}

/** Refreshes the heartbeat and the graphile-worker lock ids this process currently uses. */
export async function beat(workerId: string, lockIds: string[]): Promise<void> {
  await getDb()
    .update(workerHeartbeats)
    .set({ lastSeenAt: new Date(), lockIds })
    .where(eq(workerHeartbeats.workerId, workerId));
}

export async function markStopped(workerId: string): Promise<void> {
  await getDb()
    .update(workerHeartbeats)
    .set({ stoppedAt: new Date() })
    .where(eq(workerHeartbeats.workerId, workerId));
}

export interface WorkerStatus {
  alive: boolean;
  lastSeenAt: string | null;
  running: number;
}

export async function workerStatus(): Promise<WorkerStatus> {
  const cutoff = new Date(Date.now() - ALIVE_WITHIN_MS);
  const rows = await getDb()
    .select({ lastSeenAt: workerHeartbeats.lastSeenAt, stoppedAt: workerHeartbeats.stoppedAt })
    .from(workerHeartbeats)
    .orderBy(desc(workerHeartbeats.lastSeenAt))
    .limit(50);
  const running = rows.filter((r) => !r.stoppedAt && r.lastSeenAt > cutoff).length;
  return { alive: running > 0, lastSeenAt: rows[0]?.lastSeenAt.toISOString() ?? null, running };
}

/**
 * Finds workers that went silent without saying goodbye (killed with SIGKILL, machine lost) and
 * hands their lock ids to `unlock`, which releases their jobs for others to run. graphile-worker
 * would otherwise keep those jobs locked for four hours. Returns the ids of the workers swept.
 */
export async function sweepSilentWorkers(unlock: (lockIds: string[]) => Promise<void>): Promise<string[]> {
  const cutoff = new Date(Date.now() - DEAD_AFTER_MS);
  const silent = await getDb()
    .select({ workerId: workerHeartbeats.workerId, lockIds: workerHeartbeats.lockIds })
    .from(workerHeartbeats)
    .where(and(isNull(workerHeartbeats.stoppedAt), lt(workerHeartbeats.lastSeenAt, cutoff)));
  if (silent.length === 0) return [];
  await unlock(silent.flatMap((w) => w.lockIds));
  const ids = silent.map((w) => w.workerId);
  await getDb()
    .update(workerHeartbeats)
    .set({ stoppedAt: new Date() })
    .where(sql`${workerHeartbeats.workerId} in ${ids}`);
  // Keep a day of history for the health page; older rows only grow the table.
  await getDb()
    .delete(workerHeartbeats)
    .where(lt(workerHeartbeats.lastSeenAt, new Date(Date.now() - 86_400_000)));
  return ids;
}
