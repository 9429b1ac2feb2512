// Over 400 lines on purpose: one phase is one transaction for many legs, and its steps read best in one place.
import { sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import type { actionDeliveries, WaitKind } from "@/lib/db/schema";
import {
  ActionError,
  type ActionContext,
  type ActionOutput,
  type DatabaseExecutor,
} from "@/lib/automations/nodes/executor";
import { executorFor } from "@/lib/automations/nodes/executors";
import { settleRuns } from "@/lib/automations/store/runs";
import { recordSteps, type StepRecord } from "@/lib/automations/store/steps";
import { completeSteps, createWaitsWithSteps } from "@/lib/automations/store/waits";
import type { PlannedStep } from "./interpreter";
import { actionContext, dedupeKey, redact, waitOf } from "./leg";
import { continueAfter } from "./follow-up";
import type { Leg, LegHooks } from "./leg-state";
import { deferDownstream, takeOutside } from "./outside";
import { batchTransactionLimit, outsideLimit } from "./limits";
import { notifyApprovers } from "./notify-approvers";
import { prepareAction, prepareWait } from "./prepare";

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

type ActionStep = Extract<PlannedStep, { kind: "action" }>;
type WaitStep = Extract<PlannedStep, { kind: "wait" }>;

/** Thrown when a delivery of a phase exists already: another attempt got there first. */
export class DeliveryConflict extends Error {
  constructor() {
    super("A delivery of this batch already exists.");
    this.name = "DeliveryConflict";
  }
}

type Delivery = typeof actionDeliveries.$inferInsert;

interface PendingDb {
  leg: Leg;
  step: ActionStep;
  executor: DatabaseExecutor<never, Record<string, unknown>>;
  ctx: ActionContext;
  request: Record<string, unknown>;
}

/** Everything one phase writes, gathered while the legs advance. */
class PhaseWrites {
  steps: StepRecord[] = [];
  deliveries: Delivery[] = [];
  waits: {
    leg: Leg;
    step: WaitStep;
    position: number;
    kind: WaitKind;
    resumeAt: Date;
    output: Record<string, unknown>;
  }[] = [];
  readonly startedAt = new Date();

  base(leg: Leg, step: PlannedStep) {
    return {
      tenantId: leg.ctx.tenantId,
      runId: leg.ctx.runId,
      nodeId: step.nodeId,
      nodeType: step.nodeType,
      leg: leg.ctx.leg,
      position: leg.cursor,
      startedAt: this.startedAt,
    };
  }

  delivery(
    leg: Leg,
    step: PlannedStep,
    fields: Omit<Delivery, "tenantId" | "runId" | "nodeId" | "leg" | "nodeType" | "dedupeKey">,
  ) {
    const { position: _p, startedAt: _s, ...key } = this.base(leg, step);
    this.deliveries.push({ ...key, dedupeKey: dedupeKey(leg.ctx, step.nodeId), ...fields });
  }

  actionFailed(
    leg: Leg,
    step: PlannedStep,
    error: string,
    request?: Record<string, unknown>,
    output?: ActionOutput,
  ) {
    this.steps.push({
      ...this.base(leg, step),
      category: "action",
      status: "failed",
      input: request ? redact(request) : null,
      output: output ?? null,
      error,
    });
    this.delivery(leg, step, {
      status: "failed",
      request: request ?? {},
      response: output ?? null,
      error,
      completedAt: new Date(),
    });
  }
}

/**
 * Takes one leg up to its next database action (returned), outside action (set on `leg.outside`)
 * or end (null). Conditions, waits, failures to prepare and replayed actions are recorded on the way.
 */
function nextDatabaseAction(leg: Leg, writes: PhaseWrites): PendingDb | null {
  while (leg.cursor < leg.plan.length) {
    const step = leg.plan[leg.cursor]!;
    /** The action failed (for good, or until its next attempt): what follows it is not taken now. */
    let failed = false;
    if (step.kind === "condition") {
      writes.steps.push({
        ...writes.base(leg, step),
        category: "condition",
        status: "success",
        output: { result: step.result },
      });
      leg.ctx.steps[step.nodeId] = { result: step.result };
    } else if (step.kind === "wait") {
      const wait = prepareWait(leg.ctx, step);
      if (wait.ok)
        writes.waits.push({
          leg,
          step,
          position: leg.cursor,
          kind: wait.kind,
          resumeAt: wait.resumeAt,
          output: wait.output,
        });
      else
        writes.steps.push({
          ...writes.base(leg, step),
          category: "wait",
          status: "failed",
          error: wait.error,
        });
    } else {
      const recorded = leg.recorded?.get(step.nodeId);
      if (recorded && recorded.status === "sending") {
        const executor = executorFor(step.nodeType);
        if (executor?.effect === "outside") {
          leg.outside = { step, executor, request: executor.request.parse(recorded.request), resend: true };
          return null;
        }
      }
      if (recorded) {
        // Done by an earlier attempt: read its outcome instead of acting again. A failed one ends
        // its branch as it did then (and one that will be tried again has its retry wait written
        // already): a replay that went on would do those steps twice, now and after the retry
        // (found by the chaos suite: notes written twice after a kill in that window).
        if (recorded.step?.status === "success" && recorded.step.output) {
          leg.ctx.steps[step.nodeId] = recorded.step.output;
          // A code step: its recorded actions and the walk after it, not the script again.
          if (recorded.status === "delivered" && recorded.response)
            continueAfter(leg, step, recorded.response, leg.cursor + 1);
        }
        failed = recorded.status === "failed";
        if (!recorded.step) {
          writes.steps.push({
            ...writes.base(leg, step),
            category: "action",
            status: recorded.status === "delivered" ? "success" : "failed",
            input: redact(recorded.request),
            output: recorded.response,
            error: recorded.error,
          });
        }
      } else {
        const prepared = prepareAction(leg.ctx, step);
        if (!prepared.ok) {
          writes.actionFailed(leg, step, prepared.error, prepared.request);
          failed = true;
        } else if (prepared.executor.effect === "outside") {
          leg.outside = { step, executor: prepared.executor, request: prepared.request, resend: false };
          return null;
        } else {
          return {
            leg,
            step,
            executor: prepared.executor as DatabaseExecutor<never, Record<string, unknown>>,
            ctx: actionContext(leg.ctx, step.nodeId),
            request: prepared.request,
          };
        }
      }
    }
    leg.cursor += 1;
    if (failed) deferDownstream(leg, step.nodeId);
  }
  return null;
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

async function runEach(tx: Tx, items: PendingDb[]): Promise<(ActionOutput | ActionError)[]> {
  const results: (ActionOutput | ActionError)[] = [];
  for (const item of items) {
    try {
      results.push(await item.executor.run(tx, item.request as never, item.ctx));
    } catch (error) {
      if (!(error instanceof ActionError)) throw error;
      results.push(error);
    }
  }
  return results;
}

/** One round: every leg's next database action, one statement per action type where it can. */
async function runRound(tx: Tx, round: PendingDb[], writes: PhaseWrites): Promise<void> {
  const byType = new Map<string, PendingDb[]>();
  for (const item of round) byType.set(item.step.nodeType, [...(byType.get(item.step.nodeType) ?? []), item]);
  for (const items of byType.values()) {
    for (const group of distinctRecords(items)) {
      const executor = group[0]!.executor;
      const results = executor.runMany
        ? await executor.runMany(
            tx,
            group.map(({ request, ctx }) => ({ request: request as never, ctx })),
          )
        : await runEach(tx, group);
      group.forEach((item, i) => {
        const result = results[i]!;
        if (result instanceof ActionError) {
          writes.actionFailed(item.leg, item.step, result.message, item.request, result.output);
        } else {
          item.leg.ctx.steps[item.step.nodeId] = result;
          writes.steps.push({
            ...writes.base(item.leg, item.step),
            category: "action",
            status: "success",
            input: redact(item.request),
            output: result,
          });
          writes.delivery(item.leg, item.step, {
            status: "delivered",
            request: item.request,
            response: result,
            completedAt: new Date(),
          });
        }
        item.leg.cursor += 1;
        // A failed action ends its branch (SPEC §2): what follows it is not taken.
        if (result instanceof ActionError) deferDownstream(item.leg, item.step.nodeId);
      });
    }
  }
}

/** Inserts deliveries (one JSON parameter however many) and says how many were new. */
async function insertDeliveries(tx: Tx, deliveries: Delivery[]): Promise<number> {
  const rows = deliveries.map((d) => ({
    tenant_id: d.tenantId,
    run_id: d.runId,
    node_id: d.nodeId,
    leg: d.leg,
    node_type: d.nodeType,
    dedupe_key: d.dedupeKey,
    status: d.status,
    request: d.request,
    response: d.response ?? null,
    error: d.error ?? null,
    completed_at: d.completedAt?.toISOString() ?? null,
  }));
  const inserted = await executePrepared(
    sql`
    insert into action_deliveries (tenant_id, run_id, node_id, leg, node_type, dedupe_key, status, request,
      response, error, completed_at)
    select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(tenant_id uuid, run_id uuid,
      node_id text, leg int, node_type text, dedupe_key text, status text, request jsonb, response jsonb,
      error text, completed_at timestamptz)
    on conflict do nothing
    returning 1`,
    tx,
  );
  return inserted.length;
}

/** Writes a phase's waits: their `waiting` steps, the rows and their jobs in one statement (none twice on a replay). */
async function writeWaits(tx: Tx, writes: PhaseWrites): Promise<void> {
  if (writes.waits.length === 0) return;
  const created = await createWaitsWithSteps(
    tx,
    writes.waits.map(({ leg, step, position, output }) => ({
      ...writes.base(leg, step),
      position,
      category: "wait",
      status: "waiting" as const,
      input: step.params,
      output,
      finishedAt: null,
    })),
    writes.waits.map(({ leg, step, kind, resumeAt }) => waitOf(leg.ctx, step, { kind, resumeAt })),
  );
  const asked = new Map(
    writes.waits.map(({ leg, step, output }) => [
      `${leg.ctx.runId}|${step.nodeId}`,
      { leg: leg.ctx, output },
    ]),
  );
  await notifyApprovers(
    tx,
    created
      .filter((w) => w.kind === "approval")
      .map((w) => ({ waitId: w.id, nodeId: w.nodeId, ...asked.get(`${w.runId}|${w.nodeId}`)! })),
  );
}

/** One phase for these legs, in one transaction (see the top of this file). */
async function writePhase(tx: Tx, legs: Leg[]): Promise<void> {
  const writes = new PhaseWrites();
  await completeSteps(
    tx,
    legs.flatMap((leg) =>
      leg.opening?.stepId
        ? [{ stepId: leg.opening.stepId, status: "success" as const, reason: leg.opening.note }]
        : [],
    ),
  );
  for (const leg of legs) leg.opening = null;
  for (;;) {
    const round = legs.flatMap((leg) =>
      leg.outside ? [] : [nextDatabaseAction(leg, writes)].filter((a) => a !== null),
    );
    if (round.length === 0) break;
    await runRound(tx, round, writes);
  }

  if (writes.deliveries.length > 0) {
    const inserted = await insertDeliveries(tx, writes.deliveries);
    if (inserted !== writes.deliveries.length) throw new DeliveryConflict();
  }
  await recordSteps(tx, writes.steps);
  await writeWaits(tx, writes);
  await settleRuns(
    tx,
    legs.filter((leg) => !leg.outside).map((leg) => ({ runId: leg.ctx.runId, leg: leg.ctx.leg })),
  );
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
 * when each goes on alone (to its outside action), or when a failed phase splits them.
 */
export async function executeLegs(legs: Leg[], hooks: LegHooks, apart?: () => void): Promise<void> {
  if (legs.length === 0) return apart?.();
  const restore = legs.map(snapshot);
  const phase = () => getDb().transaction((tx) => writePhase(tx, legs));
  try {
    // Big phases queue for the database; a single leg's small one goes straight in.
    await (legs.length > 1 ? batchTransactionLimit(phase) : phase());
  } catch (error) {
    apart?.();
    restore.forEach((undo) => undo());
    if (legs.length === 1) return hooks.onError(legs[0]!, error);
    if (!(error instanceof DeliveryConflict))
      console.warn(`A phase of ${legs.length} legs failed; running them one by one.`, error);
    await Promise.all(
      legs.map(async (leg) => {
        await hooks.reload(leg);
        await executeLegs([leg], hooks);
      }),
    );
    return;
  }
  apart?.();
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
