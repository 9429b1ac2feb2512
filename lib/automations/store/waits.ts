import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import {
  automationRuns,
  automationRunWaits,
  type RunEvent,
  type StepStatus,
  type WaitKind,
} from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { newStepsSql, type StepRecord } from "./steps";
import { heldByBrake } from "./brake-held";
import { DUE_PRIORITY } from "@/lib/queue/fair-share";

export type WaitRow = typeof automationRunWaits.$inferSelect;

export interface NewWait {
  tenantId: string;
  runId: string;
  automationId: string;
  automationVersion: number;
  nodeId: string;
  nodeType: string;
  /** The wait's own `waiting` step; none for a retry (its failed attempt is the step). */
  stepId: string | null;
  leg: number;
  event: RunEvent;
  kind: WaitKind;
  resumeAt: Date;
  /** A retry: the attempt it will run. */
  attempt?: number;
  /** A wait for an event: its event type and match key (engine/event-waits.ts). */
  matchEvent?: string;
  matchKey?: string;
}

/** Attempts of a wait's resume job. */
const RESUME_MAX_ATTEMPTS = 5;

/** A wait just written, as its callers need it. */
export interface CreatedWait {
  id: string;
  runId: string;
  nodeId: string;
  kind: WaitKind;
}

/**
 * Writes wait rows and their delayed `automation_resume` jobs (job_key = the wait's id) in the
 * caller's transaction, in ONE statement however many: a wait never exists without its job.
 * Throws if scheduling fails.
 *
 * The jobs go straight into graphile-worker's table (as the WakeTimer's lock does), not through
 * `add_jobs`, whose NOTIFY is what makes a job start at once. A transaction that notifies takes
 * Postgres's one notify lock from its commit until the commit is on disk, so every notifying
 * commit of the database queues behind the others (`Lock:object` in pg_stat_activity): at a few
 * hundred events/s, a NOTIFY for each pausing leg — for a job due in two days, that no worker can
 * take yet — halved how many events the whole shop could take (bench -- live). A wait already due
 * (a time in the past) still notifies; the others are found by the WakeTimer or the next poll.
 */
export async function createWaits(tx: DbOrTx, waits: NewWait[]): Promise<CreatedWait[]> {
  if (waits.length === 0) return [];
  return insertWaits(
    tx,
    sql``,
    sql`select * from json_to_recordset(${JSON.stringify(waits.map(waitRow))}::json) as x(${WAIT_COLUMNS}, step_id uuid)`,
  );
}

/**
 * `createWaits` for waits that each have a `waiting` step of their own (the step of the wait's
 * node), written by the same statement: the steps, then the waits of the steps that were new,
 * with their jobs. A step that exists already was written by an earlier attempt of
 * the leg, together with its wait and job: neither is written again.
 */
export async function createWaitsWithSteps(
  tx: DbOrTx,
  steps: StepRecord[],
  waits: Omit<NewWait, "stepId">[],
): Promise<CreatedWait[]> {
  if (waits.length === 0) return [];
  return insertWaits(
    tx,
    sql`steps as (${newStepsSql(steps)}),`,
    sql`select x.*, s.id as step_id
      from json_to_recordset(${JSON.stringify(waits.map(waitRow))}::json) as x(${WAIT_COLUMNS})
      join steps s on s.run_id = x.run_id and s.node_id = x.node_id`,
  );
}

const WAIT_COLUMNS = sql.raw(`tenant_id uuid, run_id uuid, automation_id uuid, automation_version int,
  node_id text, node_type text, leg int, event jsonb, kind text, resume_at timestamptz, attempt int,
  match_event text, match_key text`);

function waitRow(w: Omit<NewWait, "stepId"> & { stepId?: string | null }) {
  return {
    tenant_id: w.tenantId,
    run_id: w.runId,
    automation_id: w.automationId,
    automation_version: w.automationVersion,
    node_id: w.nodeId,
    node_type: w.nodeType,
    leg: w.leg,
    event: w.event,
    kind: w.kind,
    resume_at: w.resumeAt.toISOString(),
    attempt: w.attempt ?? null,
    match_event: w.matchEvent ?? null,
    match_key: w.matchKey ?? null,
    ...(w.stepId === undefined ? {} : { step_id: w.stepId }),
  };
}

/** The waits `source` selects (WAIT_COLUMNS and `step_id`), after the CTEs `before`, with their jobs. */
async function insertWaits(tx: DbOrTx, before: SQL, source: SQL): Promise<CreatedWait[]> {
  const created = await executePrepared<{
    id: string;
    run_id: string;
    node_id: string;
    kind: WaitKind;
    jobs: number;
    notified: number;
  }>(
    sql`
    with ${before} w as (
      insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id,
        node_type, leg, event, kind, resume_at, attempt, step_id, match_event, match_key)
      select x.tenant_id, x.run_id, x.automation_id, x.automation_version, x.node_id, x.node_type, x.leg,
        x.event, x.kind, x.resume_at, x.attempt, x.step_id, x.match_event, x.match_key
      from (${source}) x
      returning id, tenant_id, run_id, node_id, kind, resume_at, match_event, match_key
    ), paths as (
      -- The field a wait for an event compares, so that recording such an event looks it up.
      insert into event_match_paths (tenant_id, event_type, path)
      select distinct tenant_id, match_event, split_part(substr(match_key, 3), '=', 1) from w
      where kind = 'event' and match_key like 'f:%'
      on conflict do nothing
    ), jobs as (
      insert into graphile_worker._private_jobs (task_id, payload, run_at, max_attempts, key, priority)
      select t.id, json_build_object('waitId', w.id), w.resume_at, ${RESUME_MAX_ATTEMPTS}, w.id::text,
        ${DUE_PRIORITY}::smallint
      from w join graphile_worker._private_tasks t on t.identifier = 'automation_resume'
      returning run_at
    ), due as (
      select pg_notify('jobs:insert', '{"count":1}') from jobs where run_at <= now() limit 1
    )
    -- A CTE that only reads is run only when read: selecting "notified" is what makes "due" notify.
    select w.id, w.run_id, w.node_id, w.kind, (select count(*) from jobs)::int as jobs,
      (select count(*) from due)::int as notified
    from w`,
    tx,
  );
  if (created.length > 0 && Number(created[0]!.jobs) !== created.length) {
    throw new Error(
      "The automation_resume task is not registered with graphile-worker; run `tillflow migrate`.",
    );
  }
  return created.map((w) => ({ id: String(w.id), runId: String(w.run_id), nodeId: w.node_id, kind: w.kind }));
}

/** Resolves a pending wait without running its downstream, and drops its job. */
export async function cancelWait(tx: DbOrTx, waitId: string, reason: string): Promise<WaitRow | null> {
  const [wait] = await tx
    .update(automationRunWaits)
    .set({ status: "cancelled", reason, resolvedAt: new Date() })
    .where(and(eq(automationRunWaits.id, waitId), eq(automationRunWaits.status, "pending")))
    .returning();
  if (!wait) return null;
  await tx.execute(sql`select graphile_worker.remove_job(${waitId})`);
  await completeStep(tx, wait.stepId, "skipped", { reason });
  return wait;
}

/** Ends one wait's step row (see `completeSteps`); a `later` has no step of its own. */
export async function completeStep(
  tx: DbOrTx,
  stepId: string | null,
  status: Exclude<StepStatus, "waiting">,
  detail: { reason?: string | null; error?: string | null } = {},
): Promise<void> {
  if (stepId) await completeSteps(tx, [{ stepId, status, ...detail }]);
}

export async function countPendingWaits(tx: DbOrTx, runId: string): Promise<number> {
  const [row] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from automation_run_waits where run_id = ${runId} and status = 'pending' and kind <> 'later'`,
  );
  return row?.n ?? 0;
}

/** Marks a run `waiting` with the due time of its earliest pending wait. */
export async function markRunWaiting(tx: DbOrTx, runId: string): Promise<void> {
  await tx
    .update(automationRuns)
    .set({
      status: "waiting",
      resumeAt: sql`(select min(resume_at) from automation_run_waits
        where run_id = ${runId} and status = 'pending' and kind <> 'later')`,
      updatedAt: new Date(),
    })
    .where(eq(automationRuns.id, runId));
}

/** The job that acts on a wait when it comes due. */
export function resumeTask(kind: string): "automation_later" | "automation_resume" {
  return kind === "later" ? "automation_later" : "automation_resume";
}

export const OVERDUE_MESSAGE = "Scheduled resume never ran.";
export const WATCHDOG_WAIT_REASON = "Its job had vanished; the watchdog scheduled it again.";

/**
 * The backstop for lost resume jobs: a pending wait more than 60 minutes past its resume time
 * fails (and so does its run); a pending wait not yet overdue whose job is missing gets its job
 * back. Returns how many of each.
 */
export async function failOverdueWaits(tx: DbOrTx): Promise<{ failed: string[]; rescheduled: number }> {
  const overdue = await tx.execute<{ id: string; run_id: string; step_id: string | null; kind: string }>(sql`
    update automation_run_waits ow set status = 'failed', reason = ${OVERDUE_MESSAGE}, resolved_at = now()
    where status = 'pending' and resume_at < now() - interval '60 minutes' and not ${heldByBrake("ow")}
    returning id, run_id, step_id, kind`);
  for (const w of overdue) {
    await tx.execute(sql`select graphile_worker.remove_job(${w.id})`);
    await completeStep(tx, w.step_id, "failed", { error: OVERDUE_MESSAGE });
  }
  // The watchdog: say so on the wait, so its run's history tells why it resumed late, if at all.
  const lost = await tx.execute<{ id: string; resume_at: string; kind: string }>(sql`
    update automation_run_waits set reason = ${WATCHDOG_WAIT_REASON}
    where id in (
      select w.id from automation_run_waits w
      where w.status = 'pending' and w.resume_at >= now() - interval '60 minutes'
        and not exists (select 1 from graphile_worker._private_jobs j where j.key = w.id::text)
        and not ${heldByBrake("w")}
      limit 10000)
    returning id, resume_at, kind`);
  await enqueueJobs(
    tx,
    lost.map((w) => ({
      task: resumeTask(w.kind),
      payload: { waitId: w.id },
      runAt: new Date(w.resume_at),
      jobKey: w.id,
    })),
  );
  // A late `later` fails alone; a late pause fails its run.
  const runs = overdue.filter((w) => w.kind !== "later").map((w) => w.run_id);
  return { failed: [...new Set(runs)], rescheduled: lost.length };
}

/** Ends wait steps in one statement: `success` on wake (with a note), `skipped` or `failed` when stopped. */
export async function completeSteps(
  tx: DbOrTx,
  steps: {
    stepId: string;
    status: Exclude<StepStatus, "waiting">;
    reason?: string | null;
    error?: string | null;
    /** Added to the step's output (the event that woke a wait for one). */
    output?: Record<string, unknown>;
  }[],
): Promise<void> {
  if (steps.length === 0) return;
  const rows = steps.map((s) => ({
    id: s.stepId,
    status: s.status,
    reason: s.reason ?? null,
    error: s.error ?? null,
    output: s.output ?? null,
  }));
  await executePrepared(
    sql`
    update automation_run_steps s set status = v.status, error = v.error, finished_at = now(),
      -- A deferred message's wait keeps why it waited (lib/messaging) when its turn comes.
      reason = case when v.reason is null and s.output ? 'deferredFor' then s.reason else v.reason end,
      duration_ms = (extract(epoch from now() - s.started_at) * 1000)::int,
      output = case when v.output is null then s.output else coalesce(s.output, '{}') || v.output end
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(id uuid, status text, reason text, error text, output jsonb)
    where s.id = v.id`,
    tx,
  );
}

/**
 * Cancels the pending waits of runs that are ending (their automation was switched off, or the
 * run failed), in one round of statements: each run's pending waits — not the later steps it asked
 * for, which stand on their own — are cancelled with that run's reason, their jobs removed and
 * their steps skipped.
 */
export async function cancelPendingWaitsOf(
  tx: DbOrTx,
  runs: { runId: string; reason: string }[],
): Promise<void> {
  if (runs.length === 0) return;
  const cancelled = await executePrepared<{ id: string; step_id: string | null; reason: string }>(
    sql`
    update automation_run_waits w set status = 'cancelled', reason = v.reason, resolved_at = now()
    from json_to_recordset(${JSON.stringify(runs)}::json) as v("runId" uuid, reason text)
    where w.run_id = v."runId" and w.status = 'pending' and w.kind <> 'later'
    returning w.id, w.step_id, w.reason`,
    tx,
  );
  if (cancelled.length === 0) return;
  await tx.execute(sql`
    select graphile_worker.remove_job(k) from json_array_elements_text(${JSON.stringify(cancelled.map((w) => w.id))}::json) as k`);
  await completeSteps(
    tx,
    cancelled.flatMap((w) =>
      w.step_id ? [{ stepId: w.step_id, status: "skipped" as const, reason: w.reason }] : [],
    ),
  );
}
