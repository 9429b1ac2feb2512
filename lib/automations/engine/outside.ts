import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { actionDeliveries } from "@/lib/db/schema";
import { ActionError, ActionSkipped, type ActionOutput } from "@/lib/automations/nodes/executor";
import { backoffMs, DEFAULT_RETRY, retryParams } from "@/lib/automations/nodes/retry";
import { recordSteps } from "@/lib/automations/store/steps";
import { createWaits } from "@/lib/automations/store/waits";
import { actionDone, endBranch } from "./advance";
import { messageTouches } from "./touches";
import { insertTouches } from "@/lib/automations/store/touches";
import { holdClaims } from "./fence";
import { keptOutput } from "./kept-output";
import { actionContext, dedupeKey, redact, waitOf } from "./leg";
import type { Leg, LegHooks } from "./leg-state";
import { messageOf } from "@/lib/errors";

const DEFAULT_RESEND_REASON = "Re-sent after an interruption, with the same Idempotency-Key.";

/**
 * Takes a leg's outside action: records the delivery `sending` (or, re-sending after a crash,
 * counts the attempt), sends with the dedupe key, then records the outcome and the step together.
 * A delivery that another attempt recorded meanwhile is read back for the next phase to replay.
 */
export async function takeOutside(leg: Leg, hooks: LegHooks): Promise<void> {
  const { step, executor, request, resend } = leg.outside!;
  const key = { runId: leg.ctx.runId, nodeId: step.nodeId, leg: leg.ctx.leg };
  const where = sql`run_id = ${key.runId} and node_id = ${key.nodeId} and leg = ${key.leg}`;
  // Nothing is sent for a leg a peer took over while this worker was cut off (fence.ts).
  const fresh = await getDb().transaction(async (tx) => {
    await holdClaims(tx, [leg.claim]);
    if (resend) {
      await tx.execute(sql`update action_deliveries set attempts = attempts + 1 where ${where}`);
      return true;
    }
    const inserted = await tx
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
    return inserted.length > 0;
  });
  if (!fresh) {
    leg.outside = null;
    await hooks.reload(leg);
    return;
  }
  const startedAt = new Date();
  let output: ActionOutput;
  let failure: string | null = null;
  let retry: NextAttempt | null = null;
  let skipped: string | null = null;
  try {
    output = await executor.send(request as never, actionContext(leg.ctx, step.nodeId));
  } catch (error) {
    if (!(error instanceof ActionSkipped)) {
      failure = messageOf(error);
      output = error instanceof ActionError ? error.output : {};
      retry = nextAttempt(leg, step, error);
    } else {
      // Skipped for the customer's consent (lib/consent): nothing sent, and the run goes on.
      skipped = error.message;
      output = { skipped: true, ...error.output };
    }
  }
  // A failed attempt that will be tried again says so; settling counts only an action's last attempt.
  output = {
    ...(resend ? { resentAfterInterruption: true } : {}),
    ...(retry ? { retry: { next: retry.attempt, of: retry.attempts, at: retry.at.toISOString() } } : {}),
    ...output,
  };
  // Held to its limits here, so the step, the delivery and `{steps.<id>.…}` keep the same output;
  // a step that decides its own next actions (a code step) keeps its list whole, and what it hands
  // on is held when it is handed on (`follow-up.ts`).
  if (!executor.followUp) output = keptOutput(leg.ctx, step, output);
  await getDb().transaction(async (tx) => {
    await holdClaims(tx, [leg.claim]);
    await tx.execute(sql`
      update action_deliveries set status = ${failure ? "failed" : "delivered"},
        response = ${JSON.stringify(skipped ? { ...output, reason: skipped } : output)}::jsonb,
        error = ${failure}, completed_at = now()
      where ${where}`);
    await recordSteps(tx, [
      {
        tenantId: leg.ctx.tenantId,
        ...key,
        nodeType: step.nodeType,
        category: "action",
        position: leg.cursor,
        status: failure ? "failed" : skipped ? "skipped" : "success",
        input: redact(request),
        output,
        error: failure,
        reason: skipped
          ? skipped
          : retry
            ? `Retry ${retry.attempt} of ${retry.attempts} at ${retry.at.toISOString().slice(11, 16)} UTC.`
            : resend
              ? (executor.resendReason ?? DEFAULT_RESEND_REASON)
              : null,
        startedAt,
      },
    ]);
    if (!failure && !skipped)
      await insertTouches(tx, messageTouches(leg.ctx, leg.graph, step, request as Record<string, unknown>));
    if (retry) {
      // The next attempt is a durable wait: a worker killed during the backoff loses nothing.
      await createWaits(tx, [
        waitOf(leg.ctx, step, {
          kind: "retry",
          resumeAt: retry.at,
          stepId: null,
          // Every attempt keeps the first attempt's leg: its dedupe key.
          leg: leg.ctx.retry?.nodeId === step.nodeId ? leg.ctx.retry.keyLeg : leg.ctx.leg,
          attempt: retry.attempt,
        }),
      ]);
    }
  });
  leg.outside = null;
  // What follows a failed action waits for its next attempt (the retry leg plans it again), or,
  // after its last attempt failed, does not run: the branch ends there.
  if (failure) endBranch(leg, step);
  else actionDone(leg, step, output);
}

interface NextAttempt {
  /** The attempt that will run next (2 = the first retry). */
  attempt: number;
  attempts: number;
  at: Date;
}

/** When a failed attempt is tried again: a transient failure with attempts left (SPEC §2 "Retries"). */
function nextAttempt(
  leg: Leg,
  step: { nodeId: string; params: Record<string, unknown> },
  error: unknown,
): NextAttempt | null {
  if (!(error instanceof ActionError) || !error.transient) return null;
  const parsed = retryParams.safeParse(step.params.retry ?? DEFAULT_RETRY);
  const retry = parsed.success ? parsed.data : DEFAULT_RETRY;
  const attempt = leg.ctx.retry?.nodeId === step.nodeId ? leg.ctx.retry.attempt : 1;
  if (attempt >= retry.attempts) return null;
  const at = new Date(Date.now() + backoffMs(retry, attempt, error.transient.retryAfterMs, Math.random()));
  return { attempt: attempt + 1, attempts: retry.attempts, at };
}
