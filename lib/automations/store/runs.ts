import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { automationRuns, type RunStatus } from "@/lib/db/schema";

export type RunRow = typeof automationRuns.$inferSelect;

/**
 * Takes a queued run for execution (or re-takes a `running` one whose worker died: steps and
 * deliveries are keyed, so re-running is safe). Returns null for a run that already ended.
 */
export async function claimRun(tx: DbOrTx, runId: string): Promise<RunRow | null> {
  const [run] = await tx
    .update(automationRuns)
    .set({
      status: "running",
      startedAt: sql`coalesce(${automationRuns.startedAt}, now())`,
      legs: sql`greatest(${automationRuns.legs}, 1)`,
      updatedAt: new Date(),
    })
    .where(and(eq(automationRuns.id, runId), inArray(automationRuns.status, ["queued", "running"])))
    .returning();
  return run ?? null;
}

/** Ends a run with a given status (cancelled, failed…), with the duration from its original start. */
export async function finishRun(
  tx: DbOrTx,
  runId: string,
  status: Extract<RunStatus, "succeeded" | "partial" | "failed" | "cancelled">,
  detail: { reason?: string; error?: string } = {},
): Promise<void> {
  await tx
    .update(automationRuns)
    .set({
      status,
      reason: detail.reason ?? null,
      error: detail.error ?? null,
      resumeAt: null,
      finishedAt: sql`now()`,
      durationMs: sql`(extract(epoch from now() - coalesce(${automationRuns.startedAt}, ${automationRuns.createdAt})) * 1000)::int`,
      updatedAt: new Date(),
    })
    .where(
      and(eq(automationRuns.id, runId), inArray(automationRuns.status, ["queued", "running", "waiting"])),
    );
}

/**
 * Computes a run's outcome from every action step of every leg (SPEC §2 "Settling"):
 * succeeded (none failed), partial (some failed), failed (all failed). Wait and condition rows do
 * not count; a run with no action steps succeeded. A run with a pending wait stays `waiting`,
 * with `resume_at` set to its earliest. Duration runs from the original start.
 */
export async function settleRun(tx: DbOrTx, runId: string): Promise<RunStatus | null> {
  const rows = await tx.execute<{ status: RunStatus }>(sql`
    with tally as (
      select count(*) filter (where category = 'action') as actions,
             count(*) filter (where category = 'action' and status = 'failed') as failed
      from automation_run_steps where run_id = ${runId}
    ), pending as (
      select count(*) as n, min(resume_at) as next from automation_run_waits where run_id = ${runId} and status = 'pending'
    )
    update automation_runs r set
      status = case
        when pending.n > 0 then 'waiting'
        when tally.failed = 0 then 'succeeded'
        when tally.failed = tally.actions then 'failed'
        else 'partial' end,
      resume_at = pending.next,
      finished_at = case when pending.n > 0 then null else now() end,
      duration_ms = case when pending.n > 0 then null
        else (extract(epoch from now() - coalesce(r.started_at, r.created_at)) * 1000)::int end,
      error = case when pending.n = 0 and tally.failed > 0
        then tally.failed || ' of ' || tally.actions || ' actions failed.' else null end,
      updated_at = now()
    from tally, pending
    where r.id = ${runId} and r.status in ('running', 'waiting')
    returning r.status`);
  return rows[0]?.status ?? null;
}
