import { getDb, type Tx } from "@/lib/db/client";
import {
  ActionDeferred,
  ActionError,
  ActionSkipped,
  type ActionContext,
  type ActionOutput,
  type DatabaseExecutor,
} from "@/lib/automations/nodes/executor";
import { executorFor } from "@/lib/automations/nodes/executors";
import { settleRuns } from "@/lib/automations/store/runs";
import { recordSteps } from "@/lib/automations/store/steps";
import { completeSteps } from "@/lib/automations/store/waits";
import { endBranch, nextAction, type ActionStep } from "./advance";
import { actionContext, redact } from "./leg";
import { continueAfter } from "./follow-up";
import { keptOutput } from "./kept-output";
import type { Leg, LegHooks, RecordedAction } from "./leg-state";
import { takeOutside } from "./outside";
import { batchTransactionLimit, outsideLimit } from "./limits";
import { DeliveryConflict, insertDeliveries, PhaseWrites, writeWaits } from "./phase-writes";
import { lookBackForEvents } from "./event-waits";
import { prepareAction } from "./prepare";
import { messageTouches } from "./touches";
import { insertTouches } from "@/lib/automations/store/touches";
import { holdClaims, LegTakenOver } from "./fence";
import { log } from "@/lib/log/logger";
import { legSendsMarketing, messagePath } from "./message-path";
import { lockCustomers, LockOrderConflict } from "@/lib/messaging/locks";
import { runCustomerId } from "@/lib/automations/nodes/context";

/**
 * Executing legs: the part of the pipeline after the claim and the wake decision.
 *
 * A **phase** is one transaction for any number of legs. It takes each leg from where it stands
 * to its next outside effect (or its end): conditions recorded, database actions done (round k is
 * every leg's k-th action, one statement per action type), waits written with their jobs, and the
 * legs that ended settled. Then each leg stopped at an outside effect takes it on its own, at
 * most `WORKER_OUTSIDE_CONCURRENCY` at once (so a slow call holds up no one; a code step's script
 * queues for the script pool instead, `ownLimit`): delivery recorded
 * `sending`, request sent with the dedupe key, outcome and step recorded — the window in which a
 * crash forces a re-send is just the request — and goes on in a phase of its own.
 * A batch of one leg is the same code.
 */

interface PendingDb {
  leg: Leg;
  step: ActionStep;
  executor: DatabaseExecutor<never, Record<string, unknown>>;
  ctx: ActionContext;
  request: Record<string, unknown>;
}

/**
 * Takes one leg up to its next database action (returned), outside action (set on `leg.outside`)
 * or end (null), by the walk a dry run takes too (`advance.ts`): conditions and waits are recorded
 * on the way by `writes`, failures to prepare and replayed actions here.
 */
function nextDatabaseAction(leg: Leg, writes: PhaseWrites): PendingDb | null {
  for (let step = nextAction(leg, writes); step; step = nextAction(leg, writes)) {
    const recorded = leg.recorded?.get(step.nodeId);
    if (recorded) {
      if (replay(leg, step, recorded, writes)) return null;
      continue;
    }
    const prepared = prepareAction(leg.ctx, step);
    if (!prepared.ok) {
      writes.actionFailed(leg, step, prepared.error, prepared.request);
      endBranch(leg, step);
    } else if (prepared.executor.effect === "outside") {
      leg.outside = { step, executor: prepared.executor, request: prepared.request, resend: false };
      return null;
    } else {
      const ctx = actionContext(leg.ctx, step.nodeId);
      // A marketing message may be deferred (lib/messaging): it keeps the conditions it passed.
      if (prepared.request.purpose === "marketing") ctx.message = messagePath(leg, step);
      return {
        leg,
        step,
        executor: prepared.executor as DatabaseExecutor<never, Record<string, unknown>>,
        ctx,
        request: prepared.request,
      };
    }
  }
  return null;
}

/**
 * An action an earlier attempt of the leg did: its outcome is read instead of acting again, and
 * the leg moves past it — or, for a request cut short mid-send, stops to send it again (true).
 */
function replay(leg: Leg, step: ActionStep, recorded: RecordedAction, writes: PhaseWrites): boolean {
  // Deferred (lib/messaging): its wait and step were written with it; what follows waits too.
  if (recorded.response?.deferred === true) {
    endBranch(leg, step);
    return false;
  }
  if (recorded.status === "sending") {
    const executor = executorFor(step.nodeType);
    if (executor?.effect === "outside") {
      leg.outside = { step, executor, request: executor.request.parse(recorded.request), resend: true };
      return true;
    }
  }
  // A failed one ends its branch as it did then (and one that will be tried again has its retry
  // wait written already): a replay that went on would do those steps twice, now and after the
  // retry (found by the chaos suite: notes written twice after a kill in that window).
  if ((recorded.step?.status === "success" || recorded.step?.status === "skipped") && recorded.step.output) {
    leg.ctx.steps[step.nodeId] = recorded.step.output;
    // A code step: its recorded actions and the walk after it, not the script again.
    if (recorded.status === "delivered" && recorded.response)
      continueAfter(leg, step, recorded.response, leg.cursor + 1);
  }
  if (!recorded.step) {
    const skipped = recorded.response?.skipped === true;
    writes.steps.push({
      ...writes.base(leg, step),
      category: "action",
      status: skipped ? "skipped" : recorded.status === "delivered" ? "success" : "failed",
      input: redact(recorded.request),
      output: recorded.response,
      error: recorded.error,
      ...(skipped && typeof recorded.response?.reason === "string"
        ? { reason: recorded.response.reason }
        : {}),
    });
  }
  if (recorded.status === "failed" || recorded.response?.endsBranch === true) endBranch(leg, step);
  else leg.cursor += 1;
  return false;
}

/** Splits items so that no group touches the same record twice (an UPDATE … FROM cannot). */
function distinctRecords(items: PendingDb[]): PendingDb[][] {
  const groups: { keys: Set<string>; items: PendingDb[] }[] = [];
  for (const item of items) {
    const key = item.ctx.entity
      ? `${item.ctx.tenantId}|${item.ctx.entity.domain}|${item.ctx.entity.id}`
      : `run:${item.ctx.runId}`;
    let group = groups.find((g) => !g.keys.has(key));
    if (!group) groups.push((group = { keys: new Set(), items: [] }));
    group.keys.add(key);
    group.items.push(item);
  }
  return groups.map((g) => g.items);
}

type Result = ActionOutput | ActionError | ActionSkipped | ActionDeferred;

async function runEach(tx: Tx, items: PendingDb[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const item of items) {
    try {
      results.push(await item.executor.run(tx, item.request as never, item.ctx));
    } catch (error) {
      if (!(
        error instanceof ActionError ||
        error instanceof ActionSkipped ||
        error instanceof ActionDeferred
      ))
        throw error;
      results.push(error);
    }
  }
  return results;
}

/**
 * A message held by the gate (lib/messaging) or skipped (lib/consent), with what it records:
 * deferred, a timed wait at the step, which its leg takes again then; skipped, the step with its
 * reason, and the run goes on past it (unless `endsBranch`).
 */
function recordHeld(
  leg: Leg,
  step: ActionStep,
  request: Record<string, unknown>,
  result: ActionDeferred | ActionSkipped,
  writes: PhaseWrites,
): void {
  if (result instanceof ActionDeferred) {
    writes.deferred(leg, step, result);
    writes.delivery(leg, step, {
      status: "delivered",
      request,
      response: { deferred: true, ...result.output, reason: result.message },
      completedAt: new Date(),
    });
    return;
  }
  const output = { skipped: true, ...result.output };
  leg.ctx.steps[step.nodeId] = output;
  writes.steps.push({
    ...writes.base(leg, step),
    category: "action",
    status: "skipped",
    input: redact(request),
    output,
    reason: result.message,
  });
  writes.delivery(leg, step, {
    status: "delivered",
    request,
    response: { ...output, reason: result.message },
    completedAt: new Date(),
  });
}

/**
 * The gate of the outside actions legs stopped at (an HTTP step that reaches a customer, for
 * marketing): decided in the phase's transaction, so the send it records commits with the phase
 * and before the request (a crash between them: the gate finds that send and lets it go again).
 * A held one is recorded as Send email's is, and its leg walks on. True when one was held.
 */
async function gateOutside(tx: Tx, legs: Leg[], writes: PhaseWrites): Promise<boolean> {
  let held = false;
  for (const leg of legs) {
    const outside = leg.outside;
    if (!outside || outside.resend || outside.gated || !outside.executor.gate) continue;
    const ctx = actionContext(leg.ctx, outside.step.nodeId);
    ctx.message = messagePath(leg, outside.step);
    const result = await outside.executor.gate(tx, outside.request as never, ctx);
    if (!result) {
      outside.gated = true;
      continue;
    }
    held = true;
    leg.outside = null;
    recordHeld(leg, outside.step, outside.request, result, writes);
    if (result instanceof ActionDeferred || result.output.endsBranch === true) endBranch(leg, outside.step);
    else leg.cursor += 1;
  }
  return held;
}

/**
 * The customers of the legs whose plan sends marketing, locked first and all at once, in key
 * order (lib/messaging/locks.ts): a phase's gates then wait for no lock, and two phases crossing
 * the same customers in opposite orders cannot deadlock.
 */
async function lockMarketingCustomers(tx: Tx, legs: Leg[]): Promise<void> {
  const customers = legs.flatMap((leg) => {
    const customerId = legSendsMarketing(leg) ? runCustomerId(leg.ctx.entity) : null;
    return customerId ? [{ tenantId: leg.ctx.tenantId, customerId }] : [];
  });
  if (customers.length > 0) await lockCustomers(tx, customers);
}

/** One round: every leg's next database action, one statement per action type where it can. */
async function runRound(tx: Tx, round: PendingDb[], writes: PhaseWrites): Promise<void> {
  const byType = new Map<string, PendingDb[]>();
  for (const item of round) byType.set(item.step.nodeType, [...(byType.get(item.step.nodeType) ?? []), item]);
  for (const items of byType.values()) {
    for (const group of distinctRecords(items)) {
      const executor = group[0]!.executor;
      const results: Result[] = executor.runMany
        ? await executor.runMany(
            tx,
            group.map(({ request, ctx }) => ({ request: request as never, ctx })),
          )
        : await runEach(tx, group);
      group.forEach((item, i) => {
        const result = results[i]!;
        if (result instanceof ActionError) {
          writes.actionFailed(item.leg, item.step, result.message, item.request, result.output);
        } else if (result instanceof ActionDeferred || result instanceof ActionSkipped) {
          recordHeld(item.leg, item.step, item.request, result, writes);
        } else {
          const output = keptOutput(item.leg.ctx, item.step, result);
          item.leg.ctx.steps[item.step.nodeId] = output;
          writes.touches.push(...messageTouches(item.leg.ctx, item.leg.graph, item.step, item.request));
          writes.steps.push({
            ...writes.base(item.leg, item.step),
            category: "action",
            status: "success",
            input: redact(item.request),
            output,
          });
          writes.delivery(item.leg, item.step, {
            status: "delivered",
            request: item.request,
            response: output,
            completedAt: new Date(),
          });
        }
        // A failed action ends its branch (SPEC §2): what follows it is not taken; a deferred one's
        // waits for it, and a message skipped because its turn came too late or its path changed
        // takes nothing after it either.
        if (
          result instanceof ActionError ||
          result instanceof ActionDeferred ||
          (result instanceof ActionSkipped && result.output.endsBranch === true)
        )
          endBranch(item.leg, item.step);
        else item.leg.cursor += 1;
      });
    }
  }
}

/**
 * One phase for these legs, in one transaction (see the top of this file). Returns the waits for
 * an event it wrote.
 */
async function writePhase(tx: Tx, legs: Leg[]): Promise<string[]> {
  // First, and held to the commit: a leg a peer took over writes nothing (fence.ts).
  await holdClaims(
    tx,
    legs.map((leg) => leg.claim),
  );
  const writes = new PhaseWrites();
  await completeSteps(
    tx,
    legs.flatMap(({ opening }) =>
      opening?.stepId
        ? [
            {
              stepId: opening.stepId,
              status: "success" as const,
              reason: opening.note,
              ...(opening.output ? { output: opening.output } : {}),
            },
          ]
        : [],
    ),
  );
  for (const leg of legs) leg.opening = null;
  await lockMarketingCustomers(tx, legs);
  for (;;) {
    const round = legs.flatMap((leg) =>
      leg.outside ? [] : [nextDatabaseAction(leg, writes)].filter((a) => a !== null),
    );
    if (round.length === 0) {
      // Every leg is at its end or an outside action: those a gate holds walk on.
      if (await gateOutside(tx, legs, writes)) continue;
      break;
    }
    await runRound(tx, round, writes);
  }

  if (writes.deliveries.length > 0) {
    const inserted = await insertDeliveries(tx, writes.deliveries);
    if (inserted !== writes.deliveries.length) throw new DeliveryConflict();
  }
  await recordSteps(tx, writes.steps);
  await insertTouches(tx, writes.touches);
  const eventWaits = await writeWaits(tx, writes);
  await settleRuns(
    tx,
    legs.filter((leg) => !leg.outside).map((leg) => ({ runId: leg.ctx.runId, leg: leg.ctx.leg })),
  );
  return eventWaits;
}

/**
 * Looks back once more for the events of waits just committed: an event whose statement began
 * before they were (so could not see them) and committed after their own look back is found
 * now. One that still slips through is found by the reaper's sweep (`sweepEventWaits`).
 */
async function lookBackAfterCommit(waitIds: string[]): Promise<void> {
  if (waitIds.length === 0) return;
  try {
    await lookBackForEvents(getDb(), waitIds);
  } catch (error) {
    log().warn({ err: error }, "Looking back for the events of new waits failed; the reaper's sweep will.");
  }
}

function snapshot(leg: Leg): () => void {
  const saved = { ...leg, steps: { ...leg.ctx.steps } };
  return () => {
    Object.assign(leg, {
      plan: saved.plan,
      cursor: saved.cursor,
      opening: saved.opening,
      outside: saved.outside,
    });
    leg.ctx.steps = saved.steps;
  };
}

/** SPEC §2 "Guards": a leg may be active for at most 5 minutes (slow calls add up). */
export const LEG_ACTIVE_LIMIT_MS = 5 * 60_000;
export const LEG_TIME_REASON =
  "This part of the run was active for more than 5 minutes, the limit for one leg, so it was stopped.";

/**
 * Executes legs to their end. A phase that fails as a whole is undone and, for a batch, each leg
 * is tried again alone with what an earlier attempt recorded read back; a leg alone that fails
 * goes to `hooks.onError`. `apart` is called once the legs stop sharing work: after their phase,
 * when each goes on alone (to its outside action), or when a failed phase splits them. `light`: the
 * batcher's light lane, whose phase does not queue for `batchTransactionLimit`.
 */
export async function executeLegs(
  legs: Leg[],
  hooks: LegHooks,
  apart?: () => void,
  light = false,
  lockRetries = 0,
): Promise<void> {
  if (legs.length === 0) return apart?.();
  const restore = legs.map(snapshot);
  const phase = () => getDb().transaction((tx) => writePhase(tx, legs));
  let eventWaits: string[];
  try {
    // Big phases queue for the database; a single leg's small one goes straight in, and so does
    // the light lane's (small shops' legs beside a backlog: behind its phases they would wait for
    // two of its 500-leg transactions, bench -- fairness).
    eventWaits = await (legs.length > 1 && !light ? batchTransactionLimit(phase) : phase());
  } catch (error) {
    apart?.();
    restore.forEach((undo) => undo());
    if (legs.length === 1) {
      // A customer's lock held elsewhere that this leg may not wait for (out of key order): again.
      if (error instanceof LockOrderConflict && lockRetries < 5) {
        await hooks.reload(legs[0]!);
        return executeLegs(legs, hooks, undefined, light, lockRetries + 1);
      }
      return hooks.onError(legs[0]!, error);
    }
    if (!(
      error instanceof DeliveryConflict ||
      error instanceof LegTakenOver ||
      error instanceof LockOrderConflict
    ))
      log().warn({ err: error }, `A phase of ${legs.length} legs failed; running them one by one.`);
    await Promise.all(
      legs.map(async (leg) => {
        await hooks.reload(leg);
        await executeLegs([leg], hooks);
      }),
    );
    return;
  }
  apart?.();
  await lookBackAfterCommit(eventWaits);
  await Promise.all(
    legs
      .filter((leg) => leg.outside)
      .map(async (leg) => {
        if (Date.now() - leg.ctx.now.getTime() > LEG_ACTIVE_LIMIT_MS) return hooks.stop(leg, LEG_TIME_REASON);
        try {
          const take = () => takeOutside(leg, hooks);
          await (leg.outside!.executor.ownLimit ? take() : outsideLimit(take));
        } catch (error) {
          return hooks.onError(leg, error);
        }
        await executeLegs([leg], hooks);
      }),
  );
}
