import { sql } from "drizzle-orm";
import { executePrepared } from "@/lib/db/prepared";
import type { RunEvent } from "@/lib/db/schema";

/** A real run a backtest replays: its trigger event, and the steps its first part reached. */
export interface PastRun {
  id: string;
  tenantId: string;
  triggerNodeId: string;
  event: RunEvent;
  /** The steps of its first part (up to its first wait), in order, its trigger first. */
  then: string[];
}

/**
 * The automation's latest runs that started from a real trigger event — not a re-run (it repeats
 * an event already counted), nor a run that never started (held by a cap, still queued) — newest
 * first, with the steps each one's first part took. Two queries, by index: the runs
 * (`automation_runs_automation_idx`) and their first legs' steps (`(run_id, node_id, leg)`).
 */
export async function latestRuns(tenantId: string, automationId: string, limit: number): Promise<PastRun[]> {
  const runs = await executePrepared<{ id: string; trigger_node_id: string; event: RunEvent }>(sql`
    select id, trigger_node_id, event from automation_runs
    where tenant_id = ${tenantId} and automation_id = ${automationId} and rerun_of is null
      and status not in ('queued', 'held')
    order by created_at desc, id desc
    limit ${limit}`);
  if (runs.length === 0) return [];
  const steps = await executePrepared<{ run_id: string; node_id: string }>(sql`
    select run_id, node_id from automation_run_steps
    where run_id = any(${`{${runs.map((r) => r.id).join(",")}}`}::uuid[]) and leg = 1
    order by run_id, position, started_at`);
  const byRun = new Map<string, string[]>();
  for (const step of steps) {
    const path = byRun.get(step.run_id) ?? [];
    path.push(step.node_id);
    byRun.set(step.run_id, path);
  }
  return runs.map((run) => ({
    id: run.id,
    tenantId,
    triggerNodeId: run.trigger_node_id,
    event: run.event,
    then: [run.trigger_node_id, ...(byRun.get(run.id) ?? [])],
  }));
}
