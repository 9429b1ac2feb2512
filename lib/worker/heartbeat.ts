import fs from "node:fs";
import os from "node:os";
import { and, desc, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { textArray } from "@/lib/db/array-literal";
import { getDb } from "@/lib/db/client";
import { workerHeartbeats } from "@/lib/db/schema";
import { config } from "@/lib/config/config";

/**
 * Terminology
 * - beat: a worker process refreshing its row in `worker_heartbeats` (`last_seen_at`, and the lock
 *   ids graphile-worker locks its jobs with).
 * - dead: a worker that stopped beating without saying goodbye (SIGKILL, lost machine). Either its
 *   heartbeat is older than `DEAD_AFTER_MS`, or it ran on this very host (same host identity) and
 *   its pid no longer exists, which is known at once, without waiting for the heartbeat to age.
 * - sweep: releasing a dead worker's locked jobs (`graphile_worker.force_unlock_workers`) so a live
 *   worker runs them again, and marking the dead worker stopped. Every live worker sweeps every
 *   `SWEEP_EVERY_MS` and once as it starts; graphile-worker alone would hold them for four hours.
 */

/**
 * A worker silent for longer than this is presumed dead and its jobs are released. Default 15 s
 * (`TILLFLOW_WORKER_DEAD_AFTER_MS`). It bounds how long a killed worker's jobs wait when the
 * dead worker ran on another host; on the same host the sweeper sees the pid is gone at once.
 */
export const DEAD_AFTER_MS = config().TILLFLOW_WORKER_DEAD_AFTER_MS;
/**
 * How often a worker beats. Default 3 s, and never more than a third of `DEAD_AFTER_MS`, so two
 * late beats in a row (a busy event loop, a Postgres restart) never make a live worker look dead.
 */
export const BEAT_EVERY_MS = Math.min(config().TILLFLOW_WORKER_BEAT_MS, Math.floor(DEAD_AFTER_MS / 3));
/** How often a live worker looks for dead peers. Default 2 s (`TILLFLOW_WORKER_SWEEP_EVERY_MS`). */
export const SWEEP_EVERY_MS = config().TILLFLOW_WORKER_SWEEP_EVERY_MS;
/** A worker is reported alive (health) when it has beaten within this window. */
export const ALIVE_WITHIN_MS = Math.max(DEAD_AFTER_MS, 2 * BEAT_EVERY_MS);

/**
 * Who can check this process's pid: the host name plus, on Linux, the pid namespace, because two
 * containers with host networking share a host name but not their pids. Stored in `hostname`.
 */
export function hostIdentity(): string {
  try {
    return `${os.hostname()} ${fs.readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return os.hostname();
  }
}

/** False only when the pid certainly does not exist here (ESRCH); EPERM means someone else's process. */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

export async function registerWorker(workerId: string, hostname: string, pid: number): Promise<void> {
  await getDb()
    .insert(workerHeartbeats)
    .values({ workerId, hostname, pid })
    .onConflictDoUpdate({
      target: workerHeartbeats.workerId,
      set: { lastSeenAt: new Date(), stoppedAt: null },
    });
}

/**
 * Refreshes the heartbeat and the graphile-worker lock ids this process currently uses. Returns
 * false when a peer had declared this worker dead (its beats were late): the caller says so, and
 * the row is live again from this beat on.
 */
export async function beat(workerId: string, lockIds: string[]): Promise<boolean> {
  const rows = await getDb().execute<{ was_stopped: boolean }>(sql`
    update ${workerHeartbeats} h set last_seen_at = now(), lock_ids = ${textArray(lockIds)}::text[], stopped_at = null
    from (select worker_id, stopped_at from ${workerHeartbeats} where worker_id = ${workerId}) old
    where h.worker_id = old.worker_id
    returning old.stopped_at is not null as was_stopped`);
  return rows[0]?.was_stopped !== true;
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

export interface SweepOptions {
  /** This worker's own id: never swept, whatever its row says. */
  self?: string;
  /** Silence after which a peer is dead. Default `DEAD_AFTER_MS`. */
  deadAfterMs?: number;
}

/**
 * Finds workers that died without saying goodbye (see "dead" above) and hands their lock ids to
 * `unlock`, which releases their jobs for others to run. Returns the ids of the workers swept.
 */
export async function sweepSilentWorkers(
  unlock: (lockIds: string[]) => Promise<void>,
  options: SweepOptions = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.deadAfterMs ?? DEAD_AFTER_MS));
  const here = hostIdentity();
  const candidates = await getDb()
    .select({
      workerId: workerHeartbeats.workerId,
      hostname: workerHeartbeats.hostname,
      pid: workerHeartbeats.pid,
      lastSeenAt: workerHeartbeats.lastSeenAt,
      lockIds: workerHeartbeats.lockIds,
    })
    .from(workerHeartbeats)
    .where(
      and(
        isNull(workerHeartbeats.stoppedAt),
        ne(workerHeartbeats.workerId, options.self ?? ""),
        or(lt(workerHeartbeats.lastSeenAt, cutoff), eq(workerHeartbeats.hostname, here)),
      ),
    );
  const dead = candidates.filter(
    (w) => w.lastSeenAt < cutoff || (w.hostname === here && w.pid !== process.pid && !pidExists(w.pid)),
  );
  if (dead.length === 0) return [];
  await unlock(dead.flatMap((w) => w.lockIds));
  const ids = dead.map((w) => w.workerId);
  await getDb()
    .update(workerHeartbeats)
    .set({ stoppedAt: new Date() })
    .where(and(sql`${workerHeartbeats.workerId} in ${ids}`, isNull(workerHeartbeats.stoppedAt)));
  // Keep a day of history for the health page; older rows only grow the table.
  await getDb()
    .delete(workerHeartbeats)
    .where(lt(workerHeartbeats.lastSeenAt, new Date(Date.now() - 86_400_000)));
  return ids;
}

/** Releases the jobs the given graphile-worker lock ids hold, through our own pool. */
export async function forceUnlock(lockIds: string[]): Promise<void> {
  if (lockIds.length === 0) return;
  await getDb().execute(sql`select graphile_worker.force_unlock_workers(${textArray(lockIds)}::text[])`);
}
