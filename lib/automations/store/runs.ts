import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { metrics } from "@/lib/metrics/metrics";
import { uuidArray } from "@/lib/db/array-literal";
import { automationRuns, type RunStatus } from "@/lib/db/schema";

export type RunRow = typeof automationRuns.$inferSelect;

/** A run's duration so far, from its original start (in SQL over `automation_runs r`). */
export const RUN_DURATION_MS = sql.raw(
  "(extract(epoch from now() - coalesce(r.started_at, r.created_at)) * 1000)::int",
);

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

/** Ends a run as failed or cancelled, with the duration from its original start (see `finishRuns`). */
export async function finishRun(
  tx: DbOrTx,
  runId: string,
  status: RunEnding["status"],
  detail: { reason?: string; error?: string } = {},
): Promise<void> {
  await finishRuns(tx, [{ runId, status, ...detail }]);
}

/**
 * Computes runs' outcomes from every action step of every leg (SPEC §2 "Settling"):
 * succeeded (none failed), partial (some failed), failed (all failed). Wait and condition rows do
 * not count, nor attempts that were retried (503, 503, 200 is a success); a run with no action steps succeeded
 * with `actions_taken` 0 ("Nothing to do"), in the same write. A run with a pending wait stays `waiting`
 * (a `later` it asked for is not a pause: that becomes a run of its own),
 * with `resume_at` set to its earliest. Duration runs from the original start. Set-based, so a
 * batch of legs settles in one statement.
 */
export async function settleRuns(tx: DbOrTx, legs: SettlingLeg[]): Promise<void> {
  if (legs.length === 0) return;
  const rows = legs.map((l) => ({ id: l.runId, leg: l.leg ?? null }));
  // Each run's steps and pending waits are counted by its own index lookups (LATERAL), whatever
  // the planner believes of the tables: a batch of one must never scan every step or wait (found
  // by bench -- live: with stale statistics a hash join read all of a month's steps per leg).
  const settled = await executePrepared<{ status: string }>(
    sql`
    with ids as (
      select distinct on (id) id, leg from json_to_recordset(${JSON.stringify(rows)}::json) as v(id uuid, leg int)
    )
    update automation_runs r set
      status = case
        when coalesce(p.n, 0) > 0 then 'waiting'
        when coalesce(t.failed, 0) = 0 then 'succeeded'
        when t.failed = t.actions then 'failed'
        else 'partial' end,
      resume_at = p.next,
      finished_at = case when coalesce(p.n, 0) > 0 then null else now() end,
      duration_ms = case when coalesce(p.n, 0) > 0 then null
        else ${RUN_DURATION_MS} end,
      actions_taken = case when coalesce(p.n, 0) > 0 then null else coalesce(t.actions, 0) end,
      error = case when coalesce(p.n, 0) = 0 and coalesce(t.failed, 0) > 0
        then t.failed || ' of ' || t.actions || ' actions failed.' else null end,
      updated_at = now()
    from ids
    cross join lateral (
      -- A skipped step (a marketing email to a customer without consent) is no action taken.
      select count(*) filter (where s.category = 'action' and s.status <> 'skipped') as actions,
             count(*) filter (where s.category = 'action' and s.status = 'failed') as failed
      from automation_run_steps s
      -- An attempt that was retried does not count: its action's last attempt does.
      where s.run_id = ids.id and not coalesce(s.output ? 'retry', false)
    ) t
    cross join lateral (
      select count(*) as n, min(w.resume_at) as next from automation_run_waits w
      where w.run_id = ids.id and w.status = 'pending' and w.kind <> 'later'
    ) p
    -- The runs by primary key (the planner sees how many), the status as a CASE that no status
    -- index can answer: joined on the JSON alone, guessed at 100 rows, a leg or two were settled
    -- by scanning every running and waiting run of the month (bench -- live: 4.6 ms a call with
    -- the shop's 2-day waits piling up, the costliest statement of the live path).
    where r.id = any(${uuidArray(rows.map((row) => row.id))}::uuid[]) and r.id = ids.id
      and case r.status when 'running' then true when 'waiting' then true else false end
      -- A leg settles its run unless a newer leg of it is in flight: once a wait of another branch
      -- was claimed for the next leg (legs moved on, status running), that leg owns the run's
      -- status and settles it when it ends. (Found by the chaos suite: this statement, blocked on
      -- the run row by that claim, would otherwise write 'waiting' over it from its older reading.)
      and (ids.leg is null or r.legs = ids.leg or r.status <> 'running')
    returning r.status`,
    tx,
  );
  countEnded(settled);
}

/** A leg that ended or paused; `leg` null settles whatever leg the run is on (a run stopped by hand). */
export interface SettlingLeg {
  runId: string;
  leg?: number | null;
}

/** How a run ends without settling from its steps: the wake table stopped it, or it failed. */
export interface RunEnding {
  runId: string;
  status: Extract<RunStatus, "failed" | "cancelled" | "held_out">;
  reason?: string | null;
  error?: string | null;
}

/** `finishRun` for many runs in one statement. */
export async function finishRuns(tx: DbOrTx, endings: RunEnding[]): Promise<void> {
  if (endings.length === 0) return;
  const rows = endings.map((e) => ({
    id: e.runId,
    status: e.status,
    reason: e.reason ?? null,
    error: e.error ?? null,
  }));
  const ended = await executePrepared<{ status: string }>(
    sql`
    update automation_runs r set status = v.status, reason = v.reason, error = v.error, resume_at = null,
      finished_at = now(), duration_ms = ${RUN_DURATION_MS}, updated_at = now()
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(id uuid, status text, reason text, error text)
    where r.id = any(${uuidArray(rows.map((row) => row.id))}::uuid[]) and r.id = v.id
      and case r.status when 'queued' then true when 'running' then true when 'waiting' then true else false end
    returning r.status`,
    tx,
  );
  countEnded(ended);
}

/** Runs that ended, by outcome, for `tillflow_runs_total` (lib/metrics). */
function countEnded(rows: { status: string }[]): void {
  const runs = metrics().runs;
  for (const { status } of rows) if (status !== "waiting") runs.inc({ status });
}

/** Settles one run (see `settleRuns`). */
export async function settleRun(tx: DbOrTx, runId: string): Promise<void> {
  await settleRuns(tx, [{ runId }]);
}
