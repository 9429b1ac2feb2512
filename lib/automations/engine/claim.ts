import { sql } from "drizzle-orm";
import { metrics } from "@/lib/metrics/metrics";
import { executePrepared } from "@/lib/db/prepared";
import { uuidArray } from "@/lib/db/array-literal";
import type { RunEvent } from "@/lib/db/schema";
import type { AutomationStatus, InFlightPolicy, LiveAutomation } from "./wake";
import { heldByBrake } from "@/lib/automations/store/brake-held";

/**
 * Claims: one statement per kind of leg takes any number of them, at most once. A claimed leg
 * carries the automation's live state (what the wake table reads) and whether an earlier attempt
 * may have done part of it (`replay`: its steps and deliveries must be read, not repeated).
 */

export interface ClaimedLeg {
  tenantId: string;
  runId: string;
  automationId: string;
  /** The version the run is on. */
  automationVersion: number;
  event: RunEvent;
  leg: number;
  /** Where the walk starts: the trigger (first leg) or the wait node (a resumed leg). */
  startNodeId: string;
  automation: LiveAutomation;
  /** An earlier attempt of this very leg may have recorded steps and deliveries. */
  replay: boolean;
  /**
   * The fencing token this claim raised on the run (a first leg) or on the wait it resumes: the
   * leg's writes go through only while it is still the latest (fence.ts).
   */
  token: number;
  /** A resumed leg: the wait it continues and that wait's step row. */
  wait: { id: string; stepId: string | null } | null;
  /**
   * The one out of the start node to follow: an approval's decision, or `timed_out` when its time
   * came without one. Undefined: every out (a trigger, a Wait).
   */
  startHandle?: string;
  /** A resumed wait for an event that came: the event (`{steps.<id>.event.…}` downstream). */
  wokenEvent?: Record<string, unknown>;
  /** A retry's next attempt of its action (planned from the action itself). */
  retry?: { nodeId: string; attempt: number; keyLeg: number };
  /** The start node is a step to take, not a trigger or a wait: a retry, or a re-run from a step. */
  includeStart?: boolean;
  /** A deferred marketing message's turn: the conditions its path passed (lib/messaging). */
  deferred?: { nodeId: string; path: { nodeId: string; result: boolean }[] };
}

/** The automation's live state as a claim reads it (`automationState`); null when it is gone. */
interface LiveRow {
  status: AutomationStatus;
  version: number;
  inFlightPolicy: InFlightPolicy;
  holdoutPercent?: number;
}

function liveOf(row: LiveRow | null | undefined): LiveAutomation {
  if (!row?.status) return null;
  return {
    status: row.status,
    version: Number(row.version),
    inFlightPolicy: row.inFlightPolicy,
    holdoutPercent: Number(row.holdoutPercent ?? 0),
  };
}

/** The live state of `alias`'s automation, by primary key, as one JSON value. */
const automationState = (alias: string) =>
  sql.raw(`(select json_build_object('status', a.status, 'version', a.version, 'inFlightPolicy', a.in_flight_policy,
          'holdoutPercent', a.holdout_percent)
        from automations a where a.id = ${alias}.automation_id) as automation`);

/**
 * Takes queued runs for their first leg (or re-takes `running` ones whose worker died: steps and
 * deliveries are keyed, so the leg is replayed, not repeated). Runs that already ended are not
 * returned.
 */
export async function claimRuns(runIds: string[]): Promise<ClaimedLeg[]> {
  if (runIds.length === 0) return [];
  // One table, found by its primary key alone. The status test is a CASE so that no status index
  // can answer it: a plan cached while the month's partition was young took the index of active
  // runs (thought to hold 2 rows, held 20,000) and read all of them for every batch (bench -- live).
  // A run claimed before was started by an earlier transaction (`started_at` before this one's
  // `now()`), so that is a replay, like a run with steps; reading a replay's records is harmless.
  const rows = await executePrepared<Record<string, unknown>>(sql`
    update automation_runs r set
      status = 'running', started_at = coalesce(r.started_at, now()), legs = greatest(r.legs, 1),
      claim = r.claim + 1, updated_at = now()
    where r.id = any(${uuidArray(runIds)}::uuid[])
      and case r.status when 'queued' then true when 'running' then true else false end
    returning r.id, r.tenant_id, r.automation_id, r.automation_version, r.event, r.trigger_node_id, r.rerun_from, r.claim,
      r.started_at < now() as started_before,
      ${automationState("r")},
      exists (select 1 from automation_run_steps s where s.run_id = r.id) as has_steps`);
  return rows.map((row) => ({
    tenantId: String(row.tenant_id),
    runId: String(row.id),
    automationId: String(row.automation_id),
    automationVersion: Number(row.automation_version),
    event: row.event as RunEvent,
    leg: 1,
    // A re-run from a step starts at that step, itself included.
    startNodeId: String(row.rerun_from ?? row.trigger_node_id),
    ...(row.rerun_from ? { includeStart: true } : {}),
    automation: liveOf(row.automation as LiveRow | null),
    replay: row.started_before === true || row.has_steps === true,
    token: Number(row.claim),
    wait: null,
  }));
}

/**
 * Takes due waits for resuming, numbering the leg each starts and marking its run running. At
 * most one wait per run per call (a second wait of the same run, due at the same moment, is left
 * pending for the next call, so each leg gets its own number). A wait claimed before by a leg
 * that a crash cut short (wait resumed, run still `running` on that leg) is returned as a replay;
 * one whose leg finished, or that was cancelled, is not returned at all. A wait the shop's
 * emergency brake holds is not claimed: it stays pending, and releasing the brake re-adds its job.
 */
export async function claimWaits(waitIds: string[]): Promise<ClaimedLeg[]> {
  if (waitIds.length === 0) return [];
  const ids = uuidArray(waitIds);
  const rows = await executePrepared<Record<string, unknown>>(sql`
    with candidates as (
      select distinct on (run_id) id from automation_run_waits cw
      where id = any(${ids}::uuid[]) and status = 'pending' and kind <> 'later'
        and not ${heldByBrake("cw")}
      order by run_id, resume_at, id
    ), claimed as (
      update automation_run_waits w set status = 'resumed', resolved_at = now(), resume_leg = r.legs + 1,
        claim = w.claim + 1
      from automation_runs r
      where r.id = w.run_id and w.id in (select id from candidates) and w.status = 'pending'
      returning w.id, w.tenant_id, w.run_id, w.automation_id, w.automation_version, w.node_id, w.step_id,
        w.resume_leg, w.event, w.kind, w.decision, w.attempt, w.leg as key_leg, w.woken_event,
        extract(epoch from clock_timestamp() - w.resume_at)::float8 as late_s, w.claim
    ), runs as (
      update automation_runs r set legs = c.resume_leg, status = 'running', updated_at = now()
      from claimed c where r.id = c.run_id
      returning r.id
    ), replayed as (
      -- A leg begun by a worker since lost: claimed again with a new token, so that worker, should
      -- it come back, can no longer write for it (fence.ts).
      update automation_run_waits w set claim = w.claim + 1
      from automation_runs r
      where w.id = any(${ids}::uuid[]) and w.status = 'resumed' and w.kind <> 'later'
        and r.id = w.run_id and r.status = 'running' and r.legs = w.resume_leg
      returning w.id, w.tenant_id, w.run_id, w.automation_id, w.automation_version, w.node_id, w.step_id,
        w.resume_leg, w.event, w.kind, w.decision, w.attempt, w.leg as key_leg, w.woken_event,
        null::float8 as late_s, w.claim
    ), legs as (
      select c.*, false as replay from claimed c join runs on runs.id = c.run_id
      union all
      select p.*, true as replay from replayed p
    )
    select l.*, ${automationState("l")},
      case when l.kind = 'deferred' then (select d.path from message_deferrals d
        where d.run_id = l.run_id and d.node_id = l.node_id) end as deferred_path
    from legs l`);
  observeLateness(rows);
  return rows.map((row) => ({
    tenantId: String(row.tenant_id),
    runId: String(row.run_id),
    automationId: String(row.automation_id),
    automationVersion: Number(row.automation_version),
    event: row.event as RunEvent,
    leg: Number(row.resume_leg),
    startNodeId: String(row.node_id),
    automation: liveOf(row.automation as LiveRow | null),
    replay: row.replay === true,
    token: Number(row.claim),
    wait: { id: String(row.id), stepId: row.step_id === null ? null : String(row.step_id) },
    ...(row.kind === "approval" ? { startHandle: row.decision ? String(row.decision) : "timed_out" } : {}),
    ...(row.kind === "event"
      ? row.woken_event
        ? { startHandle: "received", wokenEvent: row.woken_event as Record<string, unknown> }
        : { startHandle: "timed_out" }
      : {}),
    ...(row.kind === "deferred"
      ? {
          includeStart: true,
          deferred: {
            nodeId: String(row.node_id),
            path: (row.deferred_path ?? []) as { nodeId: string; result: boolean }[],
          },
        }
      : {}),
    ...(row.kind === "retry"
      ? {
          retry: { nodeId: String(row.node_id), attempt: Number(row.attempt), keyLeg: Number(row.key_leg) },
          includeStart: true,
        }
      : {}),
  }));
}

/** Of these waits, the ones still pending (left for a later call by the one-per-run rule). */
export async function stillPending(waitIds: string[]): Promise<string[]> {
  if (waitIds.length === 0) return [];
  const rows = await executePrepared<{ id: string }>(sql`
    select id from automation_run_waits pw
    where id = any(${uuidArray(waitIds)}::uuid[]) and status = 'pending' and kind <> 'later'
      and not ${heldByBrake("pw")}`);
  return rows.map((r) => String(r.id));
}

/**
 * How late each wait that came due by its time was taken up (`tillflow_wait_lateness_seconds`):
 * waits, retries and time-outs. A decided approval or a woken event wait is moved to "now" when
 * it wakes, so it is left out, as is a replay (taken up before, by a worker that died).
 */
function observeLateness(rows: Record<string, unknown>[]): void {
  const lateness = metrics().waitLateness;
  for (const row of rows) {
    if (row.replay === true || row.late_s === null || row.decision || row.woken_event) continue;
    lateness.observe({ kind: String(row.kind) }, Math.max(0, Number(row.late_s)));
  }
}
