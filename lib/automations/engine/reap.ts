import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { enqueueJobs } from "@/lib/jobs";
import { requeueRunJobs } from "./start/insert";
import { finishRuns, RUN_DURATION_MS } from "@/lib/automations/store/runs";
import { sweepEventWaits } from "./event-waits";
import { cancelPendingWaitsOf, failOverdueWaits, OVERDUE_MESSAGE } from "@/lib/automations/store/waits";

/** A run still `running` this long after its last claim, with no live job, is presumed lost. */
export const STUCK_AFTER_MINUTES = 30;
/** What a run re-enqueued by the watchdog says in its history. */
export const WATCHDOG_RUN_REASON = "Its job had vanished; the watchdog queued it again.";
/** A `queued` run whose job vanished is re-enqueued after this long. */
export const ORPHANED_AFTER_MINUTES = 5;

export interface ReapResult {
  failed: number;
  requeued: number;
  overdueWaits: number;
  rescheduledWaits: number;
  /** Waits for an event whose event had arrived unseen (two transactions crossing), woken now. */
  eventWaitsWoken: number;
}

/**
 * The 5-minute backstop. Fails runs stuck in `running` (never `waiting`: a parked run may wait
 * 30 days) whose job is gone or has used up its retries, re-enqueues queued runs whose job is
 * missing (a watchdog for jobs lost outside our transaction), fails waits more than an hour past
 * due ("Scheduled resume never ran.") and gives a missing job back to a wait not yet overdue, and
 * looks back for the events of recent waits for one (`sweepEventWaits`).
 */
export async function reapRuns(): Promise<ReapResult> {
  const db = getDb();
  const failed = await db.execute<{ id: string }>(sql`
    update automation_runs r set
      status = 'failed',
      error = coalesce(
        (select 'The run stopped after its job failed: ' || j.last_error
           from graphile_worker._private_jobs j where j.key = 'run:' || r.id::text and j.last_error is not null),
        'The run stopped without finishing (its worker was lost).'),
      finished_at = now(),
      duration_ms = ${RUN_DURATION_MS},
      updated_at = now()
    where r.status = 'running'
      and r.updated_at < now() - make_interval(mins => ${STUCK_AFTER_MINUTES})
      and not exists (
        select 1 from graphile_worker._private_jobs j
        where j.key = 'run:' || r.id::text and j.attempts < j.max_attempts)
    returning r.id`);
  const orphans = await db.execute<{ id: string; tenant_id: string }>(sql`
    update automation_runs set reason = ${WATCHDOG_RUN_REASON}, updated_at = now()
    where id in (
      select r.id from automation_runs r
      where r.status = 'queued'
        and r.created_at < now() - make_interval(mins => ${ORPHANED_AFTER_MINUTES})
        and not exists (select 1 from graphile_worker._private_jobs j where j.key = 'run:' || r.id::text)
      limit 10000)
    returning id, tenant_id`);
  await requeueRunJobs(
    db,
    orphans.map((r) => ({ id: r.id, tenantId: r.tenant_id })),
  );
  const waits = await db.transaction(async (tx) => {
    const result = await failOverdueWaits(tx);
    await cancelPendingWaitsOf(
      tx,
      result.failed.map((runId) => ({ runId, reason: OVERDUE_MESSAGE })),
    );
    await finishRuns(
      tx,
      result.failed.map((runId) => ({ runId, status: "failed" as const, error: OVERDUE_MESSAGE })),
    );
    return result;
  });
  const stranded = await replayStrandedLegs();
  const woken = await sweepEventWaits(db);
  return {
    failed: failed.length,
    requeued: orphans.length + stranded,
    overdueWaits: waits.failed.length,
    rescheduledWaits: waits.rescheduled,
    eventWaitsWoken: woken.length,
  };
}

/** A run `waiting` with no pending wait is stranded after this long (its leg never ran). */
export const STRANDED_AFTER_MINUTES = 1;

/**
 * Replays legs lost to a race the chaos suite found: a leg's settle reads "a wait is pending",
 * blocks on the run row while another worker claims that wait (run `running`, next leg), then
 * writes `waiting` over it. If the worker running the claimed leg is killed before it settles,
 * the redelivered job finds the run `waiting`, not `running`, and does nothing: the run waits
 * forever on a wait already resumed. Such a run (waiting, no pending wait, its current leg's wait
 * resumed, no job for it) is put back to `running` and its wait's job re-added, which claimWaits
 * then returns as a replay (steps and deliveries keyed, nothing repeated). Returns how many.
 */
export async function replayStrandedLegs(): Promise<number> {
  const db = getDb();
  const revived = await db.execute<{ wait_id: string }>(sql`
    with stranded as (
      select r.id as run_id, w.id as wait_id from automation_runs r
      join automation_run_waits w
        on w.run_id = r.id and w.status = 'resumed' and w.kind <> 'later' and w.resume_leg = r.legs
      where r.status = 'waiting'
        and r.updated_at < now() - make_interval(mins => ${STRANDED_AFTER_MINUTES})
        and not exists (select 1 from automation_run_waits p
                        where p.run_id = r.id and p.status = 'pending' and p.kind <> 'later')
        and not exists (select 1 from graphile_worker._private_jobs j where j.key = w.id::text)
      limit 10000
    )
    update automation_runs r set status = 'running', updated_at = now()
    from stranded s where r.id = s.run_id and r.status = 'waiting'
    returning s.wait_id::text as wait_id`);
  await enqueueJobs(
    db,
    revived.map((r) => ({
      task: "automation_resume" as const,
      payload: { waitId: r.wait_id },
      jobKey: r.wait_id,
    })),
  );
  return revived.length;
}
