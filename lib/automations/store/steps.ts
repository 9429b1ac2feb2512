import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import type { StepStatus } from "@/lib/db/schema";
import type { ConditionWhy } from "@/lib/automations/nodes/types";

export interface StepRecord {
  tenantId: string;
  runId: string;
  nodeId: string;
  nodeType: string;
  category: string;
  leg: number;
  /** The step's index in its leg's plan. */
  position: number;
  status: StepStatus;
  input?: Record<string, unknown> | null;
  output?: Record<string, unknown> | null;
  error?: string | null;
  reason?: string | null;
  /** A condition's: why it went its way. */
  why?: ConditionWhy | null;
  startedAt: Date;
  finishedAt?: Date | null;
}

/** A step as a row of `json_to_recordset` (column names as in the table). */
function row(step: StepRecord) {
  const finishedAt = step.finishedAt === undefined ? new Date() : step.finishedAt;
  return {
    tenant_id: step.tenantId,
    run_id: step.runId,
    node_id: step.nodeId,
    node_type: step.nodeType,
    category: step.category,
    status: step.status,
    leg: step.leg,
    position: step.position,
    input: step.input ?? null,
    output: step.output ?? null,
    error: step.error ?? null,
    reason: step.reason ?? null,
    why: step.why ?? null,
    started_at: step.startedAt.toISOString(),
    finished_at: finishedAt?.toISOString() ?? null,
    duration_ms: finishedAt ? finishedAt.getTime() - step.startedAt.getTime() : null,
  };
}

const STEP_COLUMNS = sql.raw(`tenant_id uuid, run_id uuid, node_id text, node_type text, category text,
      status text, leg int, position int, input jsonb, output jsonb, error text, reason text, why jsonb,
      started_at timestamptz, finished_at timestamptz, duration_ms int`);

/**
 * Writes step rows; a node has one row per leg, so writing it again (a redelivered job) updates
 * the row instead of adding a second one. One parameter however many steps: a batch's steps as
 * JSON cost the server one value to bind, not fifteen per row (7,500 for a batch of 500).
 */
export async function recordSteps(tx: DbOrTx, steps: StepRecord[]): Promise<void> {
  if (steps.length === 0) return;
  await executePrepared(
    sql`
    insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg, position,
      input, output, error, reason, why, started_at, finished_at, duration_ms)
    select * from json_to_recordset(${JSON.stringify(steps.map(row))}::json) as x(${STEP_COLUMNS})
    on conflict (run_id, node_id, leg) do update set status = excluded.status, position = excluded.position,
      input = excluded.input, output = excluded.output, error = excluded.error, reason = excluded.reason,
      why = excluded.why,
      finished_at = excluded.finished_at, duration_ms = excluded.duration_ms`,
    tx,
  );
}

/**
 * An INSERT (to use as a CTE) of the step rows not written yet — a node's row of this leg may
 * exist from an earlier attempt, and is then left as it is — returning the new ones' `id`,
 * `run_id` and `node_id`.
 */
export function newStepsSql(steps: StepRecord[]): SQL {
  return sql`
    insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg, position,
      input, output, error, reason, why, started_at, finished_at, duration_ms)
    select * from json_to_recordset(${JSON.stringify(steps.map(row))}::json) as x(${STEP_COLUMNS})
    on conflict do nothing
    returning id, run_id, node_id`;
}
