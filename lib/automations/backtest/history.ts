import { sql } from "drizzle-orm";
import { executePrepared } from "@/lib/db/prepared";
import type { RunEvent, RunStatus, WaitKind, WaitStatus } from "@/lib/db/schema";

/** How a real run's wait at a step went: still pending, resumed (with its outcome), or dropped. */
export interface PastWait {
  kind: Extract<WaitKind, "delay" | "approval" | "event">;
  status: WaitStatus;
  /**
   * Whether the run went on from it: resumed, and its step not ended there instead (a wake that
   * found the automation paused or edited, or the record gone, skips or fails it).
   */
  wentOn: boolean;
  /** An approval's decision; none when it timed out. */
  decision: "approved" | "rejected" | null;
  /** The event that woke a wait for one; none when it timed out. */
  wokenEvent: RunEvent | null;
}

/** A real run a backtest replays: its trigger event, the steps it took, and how its waits went. */
export interface PastRun {
  id: string;
  tenantId: string;
  triggerNodeId: string;
  event: RunEvent;
  status: RunStatus;
  /** The steps of all its parts so far, in order, its trigger first. */
  then: string[];
  /** Those of them that were conditions (a version since may have dropped them). */
  conditions: string[];
  /** Its waits at Wait, Wait until, Approval and Wait for event steps, by step (the latest). */
  waits: Map<string, PastWait>;
  /** Whether an action of it waits to be tried again: a part of it is still to come. */
  retrying: boolean;
}

const STEP_WAITS = new Set<string>(["delay", "approval", "event"]);

/**
 * The automation's latest runs that started from a real trigger event — not a re-run (it repeats
 * an event already counted), nor a run that never started (held by a cap, still queued) — newest
 * first, with the steps all their parts took and how their waits went. Three queries, by index,
 * whatever the number of runs: the runs (`automation_runs_automation_idx`), their steps
 * (`(run_id, node_id, leg)`) and their waits (`automation_run_waits_run_idx`).
 */
export async function latestRuns(tenantId: string, automationId: string, limit: number): Promise<PastRun[]> {
  const runs = await executePrepared<{
    id: string;
    trigger_node_id: string;
    event: RunEvent;
    status: RunStatus;
  }>(sql`
    select id, trigger_node_id, event, status from automation_runs
    where tenant_id = ${tenantId} and automation_id = ${automationId} and rerun_of is null
      and status not in ('queued', 'held')
    order by created_at desc, id desc
    limit ${limit}`);
  if (runs.length === 0) return [];
  const ids = `{${runs.map((r) => r.id).join(",")}}`;
  const steps = await executePrepared<{ run_id: string; node_id: string; category: string }>(sql`
    select run_id, node_id, category from automation_run_steps
    where run_id = any(${ids}::uuid[])
    order by run_id, leg, position, started_at`);
  const waits = await executePrepared<{
    run_id: string;
    node_id: string;
    kind: WaitKind;
    status: WaitStatus;
    decision: "approved" | "rejected" | null;
    woken_event: RunEvent | null;
    step_status: string | null;
  }>(sql`
    select w.run_id, w.node_id, w.kind, w.status, w.decision, w.woken_event, s.status as step_status
    from automation_run_waits w
    left join automation_run_steps s on s.id = w.step_id and s.run_id = w.run_id
    where w.tenant_id = ${tenantId} and w.run_id = any(${ids}::uuid[]) and w.kind <> 'later'
    order by w.run_id, w.created_at, w.id`);
  const byRun = new Map<string, string[]>();
  const conditionsOf = new Map<string, string[]>();
  for (const step of steps) {
    const path = byRun.get(step.run_id) ?? [];
    path.push(step.node_id);
    byRun.set(step.run_id, path);
    if (step.category === "condition")
      conditionsOf.set(step.run_id, [...(conditionsOf.get(step.run_id) ?? []), step.node_id]);
  }
  const waitsOf = new Map<string, Map<string, PastWait>>();
  const retrying = new Set<string>();
  for (const wait of waits) {
    if (wait.kind === "retry") {
      if (wait.status === "pending") retrying.add(wait.run_id);
      continue;
    }
    if (!STEP_WAITS.has(wait.kind)) continue;
    const ofRun = waitsOf.get(wait.run_id) ?? new Map<string, PastWait>();
    ofRun.set(wait.node_id, {
      kind: wait.kind as PastWait["kind"],
      status: wait.status,
      wentOn: wait.status === "resumed" && wait.step_status !== "skipped" && wait.step_status !== "failed",
      decision: wait.decision,
      wokenEvent: wait.woken_event,
    });
    waitsOf.set(wait.run_id, ofRun);
  }
  return runs.map((run) => ({
    id: run.id,
    tenantId,
    triggerNodeId: run.trigger_node_id,
    event: run.event,
    status: run.status,
    then: [run.trigger_node_id, ...(byRun.get(run.id) ?? [])],
    conditions: conditionsOf.get(run.id) ?? [],
    waits: waitsOf.get(run.id) ?? new Map(),
    retrying: retrying.has(run.id),
  }));
}
