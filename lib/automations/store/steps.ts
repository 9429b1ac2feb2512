import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { automationRunSteps, type StepStatus } from "@/lib/db/schema";

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
  startedAt: Date;
  finishedAt?: Date | null;
}

function values(step: StepRecord) {
  const finishedAt = step.finishedAt === undefined ? new Date() : step.finishedAt;
  return {
    ...step,
    input: step.input ?? null,
    output: step.output ?? null,
    error: step.error ?? null,
    reason: step.reason ?? null,
    finishedAt,
    durationMs: finishedAt ? finishedAt.getTime() - step.startedAt.getTime() : null,
  };
}

/**
 * Writes step rows; a node has one row per leg, so writing it again (a redelivered job) updates
 * the row instead of adding a second one.
 */
export async function recordSteps(tx: DbOrTx, steps: StepRecord[]): Promise<void> {
  if (steps.length === 0) return;
  await tx
    .insert(automationRunSteps)
    .values(steps.map(values))
    .onConflictDoUpdate({
      target: [automationRunSteps.runId, automationRunSteps.nodeId, automationRunSteps.leg],
      set: {
        status: sql`excluded.status`,
        position: sql`excluded.position`,
        input: sql`excluded.input`,
        output: sql`excluded.output`,
        error: sql`excluded.error`,
        reason: sql`excluded.reason`,
        finishedAt: sql`excluded.finished_at`,
        durationMs: sql`excluded.duration_ms`,
      },
    });
}
