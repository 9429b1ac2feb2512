import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, automationRunSteps, type RunEvent } from "@/lib/db/schema";
import { renderTemplate, type TemplateContext } from "@/lib/automations/graph/tokens";
import { registry } from "@/lib/automations/nodes/registry";
import { executorFor } from "@/lib/automations/nodes/executors";
import { ActionError, type ActionContext, type ActionOutput } from "@/lib/automations/nodes/executor";
import { resumeAtFor } from "@/lib/automations/nodes/timing/resume-at";
import { recordSteps } from "@/lib/automations/store/steps";
import { createWait, markRunWaiting } from "@/lib/automations/store/waits";
import type { RunEntity } from "./entity";
import type { PlannedStep } from "./interpreter";

/** Everything a leg needs to execute its planned steps. */
export interface LegContext {
  tenantId: string;
  runId: string;
  automationId: string;
  automationName: string;
  /** The version whose graph this leg executes (recorded on any wait it creates). */
  automationVersion: number;
  leg: number;
  event: RunEvent;
  entity: RunEntity | null;
  /** Outputs of earlier steps, for `{steps.<nodeId>.…}` tokens; filled as the leg runs. */
  steps: Record<string, Record<string, unknown>>;
  now: Date;
}

const SECRET_HEADER = /auth|token|secret|key|cookie/i;

/** A step's recorded input must not leak credentials into run history. */
export function redact(request: Record<string, unknown>): Record<string, unknown> {
  const headers = request.headers;
  if (!headers || typeof headers !== "object") return request;
  const safe = Object.fromEntries(
    Object.entries(headers as Record<string, unknown>).map(([k, v]) => [
      k,
      SECRET_HEADER.test(k) ? "••••" : v,
    ]),
  );
  return { ...request, headers: safe };
}

export function actionContext(leg: LegContext, nodeId: string): ActionContext {
  return {
    tenantId: leg.tenantId,
    runId: leg.runId,
    automationId: leg.automationId,
    automationName: leg.automationName,
    automationVersion: leg.automationVersion,
    nodeId,
    leg: leg.leg,
    dedupeKey: `${leg.runId}:${nodeId}:${leg.leg}`,
    entity: leg.entity,
    event: leg.event,
    now: leg.now,
    render: (template, options) => renderTemplate(template, templateContext(leg), options),
  };
}

/** What `{token}`s read in a leg: its entity, event, earlier outputs, run and time. Also used by the dry run. */
export function templateContext(leg: LegContext): TemplateContext {
  return {
    entity: leg.entity?.data ?? null,
    event: { ...leg.event },
    steps: leg.steps,
    variables: {},
    run: { id: leg.runId },
    now: leg.now,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads what an earlier attempt of this job already recorded for a step (a redelivery). */
async function recordedStep(leg: LegContext, nodeId: string) {
  const [step] = await getDb()
    .select({ status: automationRunSteps.status, output: automationRunSteps.output })
    .from(automationRunSteps)
    .where(
      and(
        eq(automationRunSteps.runId, leg.runId),
        eq(automationRunSteps.nodeId, nodeId),
        eq(automationRunSteps.leg, leg.leg),
      ),
    );
  return step ?? null;
}

type ActionStep = Extract<PlannedStep, { kind: "action" }> & { position: number };

async function recordFailure(
  leg: LegContext,
  step: ActionStep,
  startedAt: Date,
  message: string,
  extra: {
    input?: Record<string, unknown>;
    output?: ActionOutput;
  },
) {
  await getDb().transaction(async (tx) => {
    await tx
      .insert(actionDeliveries)
      .values({
        tenantId: leg.tenantId,
        runId: leg.runId,
        nodeId: step.nodeId,
        leg: leg.leg,
        nodeType: step.nodeType,
        dedupeKey: `${leg.runId}:${step.nodeId}:${leg.leg}`,
        status: "failed",
        request: extra.input ?? {},
        response: extra.output ?? null,
        error: message,
        completedAt: new Date(),
      })
      .onConflictDoNothing();
    await recordSteps(tx, [
      {
        tenantId: leg.tenantId,
        runId: leg.runId,
        nodeId: step.nodeId,
        nodeType: step.nodeType,
        category: "action",
        leg: leg.leg,
        position: step.position,
        status: "failed",
        input: extra.input ? redact(extra.input) : null,
        output: extra.output ?? null,
        error: message,
        startedAt,
      },
    ]);
  });
}

/**
 * Runs one action exactly once per (run, node, leg). A database effect commits with its
 * delivery row and step row in one transaction; a repeat finds the delivery and replays the
 * recorded outcome. An HTTP effect is recorded `sending` before the request; a repeat that finds
 * `sending` re-sends with the same Idempotency-Key and says so in the step.
 */
async function executeAction(leg: LegContext, step: ActionStep): Promise<void> {
  const startedAt = new Date();
  const definition = registry.get(step.nodeType);
  const executor = executorFor(step.nodeType);
  if (!definition || !executor) {
    await recordFailure(
      leg,
      step,
      startedAt,
      `'${step.nodeType}' is not an action this version of Tillflow can run.`,
      {},
    );
    return;
  }
  // Stored graphs outlive code: params are checked again at execution time.
  const parsed = definition.params.safeParse(step.params);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "params"}: ${i.message}`).join("; ");
    await recordFailure(
      leg,
      step,
      startedAt,
      `${definition.label}: the step's settings are invalid (${detail}).`,
      {},
    );
    return;
  }
  const ctx = actionContext(leg, step.nodeId);
  let request: Record<string, unknown>;
  try {
    request = executor.prepare(parsed.data as never, ctx);
  } catch (error) {
    await recordFailure(leg, step, startedAt, messageOf(error), {});
    return;
  }
  const base = {
    tenantId: leg.tenantId,
    runId: leg.runId,
    nodeId: step.nodeId,
    leg: leg.leg,
    nodeType: step.nodeType,
    dedupeKey: ctx.dedupeKey,
  };
  const stepBase = {
    ...base,
    position: step.position,
    category: "action",
    input: redact(request),
    startedAt,
  };

  if (executor.effect === "database") {
    let replayed = false;
    try {
      await getDb().transaction(async (tx) => {
        const [delivery] = await tx
          .insert(actionDeliveries)
          .values({ ...base, status: "delivered", request })
          .onConflictDoNothing()
          .returning({ id: actionDeliveries.id });
        if (!delivery) {
          replayed = true;
          return;
        }
        const output = await executor.run(tx, request as never, ctx);
        await tx
          .update(actionDeliveries)
          .set({ response: output, completedAt: new Date() })
          .where(eq(actionDeliveries.id, delivery.id));
        await recordSteps(tx, [{ ...stepBase, status: "success", output }]);
        leg.steps[step.nodeId] = output;
      });
    } catch (error) {
      if (!(error instanceof ActionError)) throw error;
      await recordFailure(leg, step, startedAt, error.message, { input: request, output: error.output });
      return;
    }
    if (replayed) {
      const recorded = await recordedStep(leg, step.nodeId);
      if (recorded?.output) leg.steps[step.nodeId] = recorded.output;
    }
    return;
  }

  // Outside effect: record the intent, then send, then record the outcome.
  const [fresh] = await getDb()
    .insert(actionDeliveries)
    .values({ ...base, status: "sending", request })
    .onConflictDoNothing()
    .returning({ id: actionDeliveries.id });
  let deliveryId = fresh?.id;
  let resent = false;
  if (!deliveryId) {
    const [existing] = await getDb()
      .select()
      .from(actionDeliveries)
      .where(
        and(
          eq(actionDeliveries.runId, leg.runId),
          eq(actionDeliveries.nodeId, step.nodeId),
          eq(actionDeliveries.leg, leg.leg),
        ),
      );
    if (!existing) throw new Error(`Delivery ${ctx.dedupeKey} vanished between insert and read.`);
    if (existing.status !== "sending") {
      const recorded = await recordedStep(leg, step.nodeId);
      if (recorded?.output) leg.steps[step.nodeId] = recorded.output;
      if (recorded) return;
      // The outcome was recorded but not its step (cannot happen: both commit together); record it now.
      await recordSteps(getDb(), [
        {
          ...stepBase,
          status: existing.status === "delivered" ? "success" : "failed",
          output: existing.response,
          error: existing.error,
        },
      ]);
      return;
    }
    // An earlier attempt crashed mid-request: we cannot know whether it arrived, so send the
    // same request again under the same key and let the receiver drop the repeat.
    deliveryId = existing.id;
    resent = true;
    request = executor.request.parse(existing.request);
    await getDb()
      .update(actionDeliveries)
      .set({ attempts: sql`${actionDeliveries.attempts} + 1` })
      .where(eq(actionDeliveries.id, deliveryId));
  }
  const reason = resent ? "Re-sent after an interruption, with the same Idempotency-Key." : null;
  let output: ActionOutput;
  let failure: string | null = null;
  try {
    output = await executor.send(request as never, ctx);
  } catch (error) {
    failure = messageOf(error);
    output = error instanceof ActionError ? error.output : {};
  }
  if (resent) output = { ...output, resentAfterInterruption: true };
  await getDb().transaction(async (tx) => {
    await tx
      .update(actionDeliveries)
      .set({
        status: failure ? "failed" : "delivered",
        response: output,
        error: failure,
        completedAt: new Date(),
      })
      .where(eq(actionDeliveries.id, deliveryId));
    await recordSteps(tx, [
      { ...stepBase, status: failure ? "failed" : "success", output, error: failure, reason },
    ]);
  });
  if (!failure) leg.steps[step.nodeId] = output;
}

type WaitStep = Extract<PlannedStep, { kind: "wait" }>;

/**
 * Parks the run at a wait: the wait's step row (`waiting`), the wait row and its delayed resume
 * job, and the run's `waiting` status, in one transaction. A redelivered leg finds the step row
 * already there and schedules nothing twice. The rest of the leg (parallel branches) goes on.
 */
async function pauseAt(leg: LegContext, step: WaitStep, position: number): Promise<void> {
  const startedAt = new Date();
  const definition = registry.get(step.nodeType);
  const parsed = definition?.params.safeParse(step.params);
  const base = {
    tenantId: leg.tenantId,
    runId: leg.runId,
    nodeId: step.nodeId,
    nodeType: step.nodeType,
    category: "wait",
    leg: leg.leg,
    position,
    startedAt,
  };
  if (!definition || !parsed?.success) {
    await recordSteps(getDb(), [
      {
        ...base,
        status: "failed",
        error: "The wait's settings are invalid; the steps after it did not run.",
      },
    ]);
    return;
  }
  // resumeAtFor clamps to 1 minute .. 30 days from now (SPEC §2).
  const resumeAt = resumeAtFor({ type: step.nodeType, params: parsed.data }, leg.now);
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(automationRunSteps)
      .values({
        ...base,
        status: "waiting",
        input: step.params,
        output: { resumeAt: resumeAt.toISOString() },
      })
      .onConflictDoNothing()
      .returning({ id: automationRunSteps.id });
    if (!row) return;
    await createWait(tx, {
      tenantId: leg.tenantId,
      runId: leg.runId,
      automationId: leg.automationId,
      automationVersion: leg.automationVersion,
      nodeId: step.nodeId,
      nodeType: step.nodeType,
      stepId: row.id,
      leg: leg.leg,
      event: leg.event,
      kind: "delay",
      resumeAt,
    });
    await markRunWaiting(tx, leg.runId);
  });
}

/**
 * Executes a leg's planned steps in order: condition results are recorded, actions run exactly
 * once. Shared by the first leg and every resumed leg.
 */
export async function executeSteps(leg: LegContext, plan: PlannedStep[]): Promise<void> {
  const conditions = plan.filter((s) => s.kind === "condition");
  const now = new Date();
  await recordSteps(
    getDb(),
    conditions.map((s) => ({
      position: plan.indexOf(s),
      tenantId: leg.tenantId,
      runId: leg.runId,
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      category: "condition",
      leg: leg.leg,
      status: "success" as const,
      output: { result: s.result },
      startedAt: now,
    })),
  );
  for (const [position, step] of plan.entries()) {
    if (step.kind === "condition") {
      leg.steps[step.nodeId] = { result: step.result };
    } else if (step.kind === "action") {
      await executeAction(leg, { ...step, position });
    } else {
      await pauseAt(leg, step, position);
    }
  }
}
