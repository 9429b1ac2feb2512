import type { RunEvent } from "@/lib/db/schema";
import { renderTemplate, type TemplateContext } from "@/lib/automations/tokens/render";
import type { ActionContext } from "@/lib/automations/nodes/executor";
import type { NewWait } from "@/lib/automations/store/waits";
import { eventView, tokenRecord, type RunEntity } from "@/lib/automations/nodes/context";
import { parseSubActionId } from "./sub-action";

/**
 * Everything one leg needs: whose run it is, which version's graph it walks, the record and the
 * event it reads, and the outputs of the steps it has taken so far. Built in one place
 * (`newLeg`) for first legs, resumed legs and dry runs alike.
 */
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
  /** The shop's IANA time zone: `{… | date}` writes the day it is there. */
  timeZone: string;
  /**
   * A retry leg: the action it re-runs, which attempt this is, and the leg of the first attempt,
   * whose dedupe key every attempt carries (an HTTP retry re-sends the same Idempotency-Key).
   */
  retry?: { nodeId: string; attempt: number; keyLeg: number };
  /**
   * A deferred marketing message's turn (lib/messaging): the step it takes again, and why a
   * condition on its path no longer holds (null: it still does).
   */
  deferred?: { nodeId: string; changed: string | null };
}

export function newLeg(fields: Omit<LegContext, "steps" | "now"> & { now?: Date }): LegContext {
  return { ...fields, steps: {}, now: fields.now ?? new Date() };
}

/**
 * A side effect's dedupe key: one per (run, node, leg); sent as `Idempotency-Key` by HTTP actions.
 * A code step's actions carry the step's key plus their number (`run:code1:1#2`).
 */
export function dedupeKey(leg: LegContext, nodeId: string): string {
  const legNo = leg.retry?.nodeId === nodeId ? leg.retry.keyLeg : leg.leg;
  const sub = parseSubActionId(nodeId);
  return sub ? `${leg.runId}:${sub.nodeId}:${legNo}#${sub.number}` : `${leg.runId}:${nodeId}:${legNo}`;
}

/** A wait this leg makes at `node`: the leg's run, version and event, plus what is particular to it. */
export function waitOf<
  F extends Pick<NewWait, "kind" | "resumeAt"> &
    Partial<Pick<NewWait, "stepId" | "leg" | "attempt" | "matchEvent" | "matchKey">>,
>(leg: LegContext, node: { nodeId: string; nodeType: string }, fields: F): Omit<NewWait, "stepId"> & F {
  return {
    tenantId: leg.tenantId,
    runId: leg.runId,
    automationId: leg.automationId,
    automationVersion: leg.automationVersion,
    nodeId: node.nodeId,
    nodeType: node.nodeType,
    leg: leg.leg,
    event: leg.event,
    ...fields,
  };
}

/** What `{token}`s read in a leg: its entity, event, earlier outputs, run, time and the shop's zone. */
export function templateContext(leg: LegContext): TemplateContext {
  return {
    entity: tokenRecord(leg.entity),
    event: eventView(leg.event),
    steps: leg.steps,
    variables: {},
    run: { id: leg.runId },
    now: leg.now,
    timeZone: leg.timeZone,
  };
}

/**
 * What an action's executor is given. Its `render` fills tokens from one template context per
 * step: `templates` when the caller built it (to render with it again), else built on first use.
 */
export function actionContext(leg: LegContext, nodeId: string, templates?: TemplateContext): ActionContext {
  let context = templates;
  return {
    tenantId: leg.tenantId,
    runId: leg.runId,
    automationId: leg.automationId,
    automationName: leg.automationName,
    automationVersion: leg.automationVersion,
    nodeId,
    leg: leg.leg,
    dedupeKey: dedupeKey(leg, nodeId),
    entity: leg.entity,
    event: leg.event,
    steps: leg.steps,
    now: leg.now,
    render: (template, options) => renderTemplate(template, (context ??= templateContext(leg)), options),
  };
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
