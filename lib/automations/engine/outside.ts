import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { actionDeliveries } from "@/lib/db/schema";
import { ActionError, type ActionOutput } from "@/lib/automations/nodes/executor";
import { recordSteps } from "@/lib/automations/store/steps";
import { actionContext, dedupeKey, redact } from "./leg";
import type { Leg, LegHooks } from "./phase";

const DEFAULT_RESEND_REASON = "Re-sent after an interruption, with the same Idempotency-Key.";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Takes a leg's outside action: records the delivery `sending` (or, re-sending after a crash,
 * counts the attempt), sends with the dedupe key, then records the outcome and the step together.
 * A delivery that another attempt recorded meanwhile is read back for the next phase to replay.
 */
export async function takeOutside(leg: Leg, hooks: LegHooks): Promise<void> {
  const { step, executor, request, resend } = leg.outside!;
  const key = { runId: leg.ctx.runId, nodeId: step.nodeId, leg: leg.ctx.leg };
  const where = sql`run_id = ${key.runId} and node_id = ${key.nodeId} and leg = ${key.leg}`;
  if (resend) {
    await getDb().execute(sql`update action_deliveries set attempts = attempts + 1 where ${where}`);
  } else {
    const [fresh] = await getDb()
      .insert(actionDeliveries)
      .values({
        tenantId: leg.ctx.tenantId,
        ...key,
        nodeType: step.nodeType,
        dedupeKey: dedupeKey(leg.ctx, step.nodeId),
        status: "sending",
        request,
      })
      .onConflictDoNothing()
      .returning({ id: actionDeliveries.id });
    if (!fresh) {
      leg.outside = null;
      await hooks.reload(leg);
      return;
    }
  }
  const startedAt = new Date();
  let output: ActionOutput;
  let failure: string | null = null;
  try {
    output = await executor.send(request as never, actionContext(leg.ctx, step.nodeId));
  } catch (error) {
    failure = messageOf(error);
    output = error instanceof ActionError ? error.output : {};
  }
  if (resend) output = { ...output, resentAfterInterruption: true };
  await getDb().transaction(async (tx) => {
    await tx.execute(sql`
      update action_deliveries set status = ${failure ? "failed" : "delivered"}, response = ${JSON.stringify(output)}::jsonb,
        error = ${failure}, completed_at = now()
      where ${where}`);
    await recordSteps(tx, [
      {
        tenantId: leg.ctx.tenantId,
        ...key,
        nodeType: step.nodeType,
        category: "action",
        position: leg.cursor,
        status: failure ? "failed" : "success",
        input: redact(request),
        output,
        error: failure,
        reason: resend ? (executor.resendReason ?? DEFAULT_RESEND_REASON) : null,
        startedAt,
      },
    ]);
  });
  if (!failure) leg.ctx.steps[step.nodeId] = output;
  leg.outside = null;
  leg.cursor += 1;
}
