import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import type { actionDeliveries, WaitKind } from "@/lib/db/schema";
import type { ActionDeferred, ActionOutput } from "@/lib/automations/nodes/executor";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import type { StepRecord } from "@/lib/automations/store/steps";
import type { NewTouch } from "@/lib/automations/store/touches";
import { createWaitsWithSteps } from "@/lib/automations/store/waits";
import type { ConditionStep, SplitStep, WalkMode, WaitStep } from "./advance";
import { splitStepRecord } from "./split-step";
import type { PlannedStep } from "./interpreter";
import { dedupeKey, redact, waitOf } from "./leg";
import type { Leg } from "./leg-state";
import { notifyApprovers } from "./notify-approvers";
import { lookBackForEvents } from "./event-waits";
import type { PreparedWait } from "./prepare";

/*
 * What a phase (`phase.ts`) writes: its steps, deliveries and waits, gathered while its legs
 * advance and written together in its transaction.
 */

/** Thrown when a delivery of a phase exists already: another attempt got there first. */
export class DeliveryConflict extends Error {
  constructor() {
    super("A delivery of this batch already exists.");
    this.name = "DeliveryConflict";
  }
}

export type Delivery = typeof actionDeliveries.$inferInsert;

/**
 * Everything one phase writes, gathered while the legs advance: it is the walk's mode for a real
 * leg (`advance.ts`), recording each condition and wait the walk passes.
 */
export class PhaseWrites implements WalkMode {
  steps: StepRecord[] = [];
  deliveries: Delivery[] = [];
  /** Customer-facing steps that delivered (engine/touches.ts), written with the steps. */
  touches: NewTouch[] = [];
  waits: {
    leg: Leg;
    step: WaitStep;
    position: number;
    kind: WaitKind;
    resumeAt: Date;
    output: Record<string, unknown>;
    match?: { event: string; key: string };
    reason?: string;
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

  condition(leg: Leg, step: ConditionStep, why: ConditionWhy | null) {
    this.steps.push({
      ...this.base(leg, step),
      category: "condition",
      ...(step.error
        ? { status: "failed" as const, error: step.error }
        : { status: "success" as const, output: { result: step.result }, why }),
    });
  }

  split(leg: Leg, step: SplitStep) {
    this.steps.push({ ...this.base(leg, step), ...splitStepRecord(leg.graph, step) });
  }

  wait(leg: Leg, step: WaitStep, wait: PreparedWait) {
    if (wait.ok)
      this.waits.push({
        leg,
        step,
        position: leg.cursor,
        kind: wait.kind,
        resumeAt: wait.resumeAt,
        output: wait.output,
        ...(wait.match ? { match: wait.match } : {}),
      });
    else this.steps.push({ ...this.base(leg, step), category: "wait", status: "failed", error: wait.error });
  }

  /**
   * A marketing message deferred at its step (lib/messaging): a timed wait of kind `deferred` at
   * the action's node, with a `waiting` step saying why and until when.
   */
  deferred(leg: Leg, step: PlannedStep, deferral: ActionDeferred) {
    this.waits.push({
      leg,
      step: { kind: "wait", nodeId: step.nodeId, nodeType: step.nodeType, params: {} },
      position: leg.cursor,
      kind: "deferred",
      resumeAt: deferral.until,
      output: { ...deferral.output, reason: deferral.message },
      reason: deferral.message,
    });
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

/** Inserts deliveries (one JSON parameter however many) and says how many were new. */
export async function insertDeliveries(tx: Tx, deliveries: Delivery[]): Promise<number> {
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

/**
 * Writes a phase's waits: their `waiting` steps, the rows and their jobs in one statement (none
 * twice on a replay); a wait for an event then looks back for one recorded since its run began.
 * Returns the ids of the waits for an event it wrote, to look back again once they are committed.
 */
export async function writeWaits(tx: Tx, writes: PhaseWrites): Promise<string[]> {
  if (writes.waits.length === 0) return [];
  const created = await createWaitsWithSteps(
    tx,
    writes.waits.map(({ leg, step, position, output, reason }) => ({
      ...writes.base(leg, step),
      position,
      category: "wait",
      status: "waiting" as const,
      input: step.params,
      output,
      ...(reason ? { reason } : {}),
      finishedAt: null,
    })),
    writes.waits.map(({ leg, step, kind, resumeAt, match }) =>
      waitOf(leg.ctx, step, {
        kind,
        resumeAt,
        ...(match ? { matchEvent: match.event, matchKey: match.key } : {}),
      }),
    ),
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
  const forEvents = created.filter((w) => w.kind === "event").map((w) => w.id);
  await lookBackForEvents(tx, forEvents);
  return forEvents;
}
