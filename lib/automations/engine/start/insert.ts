import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { automationRuns } from "@/lib/db/schema";
import { enqueueJobs, freshJobsSql } from "@/lib/jobs";
import { holdOverCaps, type CapsOf } from "./caps";
import type { PlannedRun } from "./plan";

/*
 * The one place rows enter `automation_runs` and `automation_execute` jobs enter the queue. Every
 * job goes through lib/jobs.ts (`freshJobsSql`, or `enqueueJobs` for the reaper), which tags it
 * with its shop for fair share (lib/queue/fair-share.ts).
 */

/** The job key of a run's first-leg job: lets the reaper tell whether that job still exists. */
export const runJobKey = (runId: string) => `run:${runId}`;

/**
 * CTEs `<name>_added` and `<name>` (see freshJobsSql) adding the `automation_execute` job of each
 * run whose id `runIds` selects (a query of `id`), keyed `run:<id>`, tagged for `tenantId`. Only
 * for runs that never had a job: those the same statement inserts or releases.
 */
export function runJobsSql(name: string, tenantId: string, runIds: SQL): SQL {
  return freshJobsSql(
    name,
    "automation_execute",
    tenantId,
    sql`select json_build_object('runId', r.id) as payload, 'run:' || r.id::text as key from (${runIds}) r`,
  );
}

/** The columns of a planned-runs CTE, as `json_to_recordset` reads `plannedJson`. */
export const PLANNED_COLUMNS = sql.raw(
  "automation_id uuid, automation_version int, event_id text, trigger_node_id text, event jsonb, domain text, entity_id text, occurred_at text, held_reason text, rerun_of uuid, rerun_from text",
);

/** The planned runs as JSON for `json_to_recordset`, matching `PLANNED_COLUMNS`. */
export function plannedJson(runs: PlannedRun[], occurredAt?: (run: PlannedRun) => string): string {
  return JSON.stringify(
    runs.map((r) => ({
      automation_id: r.automationId,
      automation_version: r.automationVersion,
      event_id: r.eventId,
      trigger_node_id: r.triggerNodeId,
      event: r.event,
      domain: r.domain,
      entity_id: r.entityId,
      occurred_at: occurredAt?.(r) ?? null,
      held_reason: r.heldReason,
      rerun_of: r.rerunOf ?? null,
      rerun_from: r.rerunFrom ?? null,
    })),
  );
}

/**
 * The SQL that inserts the runs of `planned` (a relation with `PLANNED_COLUMNS`; `event` without
 * `occurredAt`, which `occurred_at` gives) that `where` admits, skipping those already started
 * (unique per automation and event), and adds the `automation_execute` jobs of those that start:
 * CTEs `runs` (the ids created, with `held_reason`) and `jobs` (one row when any job was added;
 * the statement must read it). A run with a `held_reason` is inserted `held`, with no job, until
 * a person releases it (release.ts).
 */
export function insertRunsSql(tenantId: string, planned: SQL, where: SQL): SQL {
  return sql`runs as (
      insert into ${automationRuns} (tenant_id, automation_id, automation_version, event_id, trigger_node_id, event, domain, entity_id, status, held_reason, rerun_of, rerun_from)
      select ${tenantId}, p.automation_id, p.automation_version, p.event_id, p.trigger_node_id,
             p.event || jsonb_build_object('occurredAt', p.occurred_at), p.domain, p.entity_id,
             case when p.held_reason is null then 'queued' else 'held' end, p.held_reason,
             p.rerun_of, p.rerun_from
      from ${planned} p where ${where}
      on conflict do nothing
      returning id, held_reason
    ),
    ${runJobsSql("jobs", tenantId, sql`select id from runs where held_reason is null`)}`;
}

/**
 * Starts runs planned in full (their events need no recording): holds those over their
 * automation's caps when `capsOf` is given (caps.ts), then inserts them all and adds the jobs of
 * those that start, in one prepared statement in the caller's transaction. Returns the ids of the
 * runs created, held ones included; a run already started (same automation and event) is skipped.
 *
 * `capsOf: null` is for what a person asked for explicitly: a re-run (rerun.ts) is not capped.
 */
export async function startPlanned(
  tx: DbOrTx,
  tenantId: string,
  planned: PlannedRun[],
  { capsOf, occurredAt }: { capsOf: CapsOf | null; occurredAt: (run: PlannedRun) => string },
): Promise<string[]> {
  if (planned.length === 0) return [];
  const runs = capsOf ? await holdOverCaps(tx, tenantId, planned, capsOf) : planned;
  const [result] = await executePrepared<{ ids: string[]; jobs: number }>(
    sql`
    with planned as (select * from json_to_recordset(${plannedJson(runs, occurredAt)}::json) as p(${PLANNED_COLUMNS})),
    ${insertRunsSql(tenantId, sql`planned`, sql`true`)}
    select coalesce((select json_agg(id) from runs), '[]') as ids, (select count(*) from jobs) as jobs`,
    tx,
  );
  return result?.ids ?? [];
}

/**
 * Adds the first-leg jobs of queued runs whose job vanished (the reaper's watchdog), of any shops,
 * each tagged for its own. The key may have been taken meanwhile, so this goes through `add_jobs`
 * (enqueueJobs), which replaces rather than fails.
 */
export async function requeueRunJobs(db: DbOrTx, runs: { id: string; tenantId: string }[]): Promise<void> {
  await enqueueJobs(
    db,
    runs.map((r) => ({
      task: "automation_execute" as const,
      payload: { runId: r.id },
      jobKey: runJobKey(r.id),
      tenantId: r.tenantId,
    })),
  );
}
