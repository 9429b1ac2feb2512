import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import { DOMAIN_LABELS, DOMAINS, type Domain } from "@/lib/domains/domains";
import { entityLabel, entityName } from "@/lib/domains/labels";
import { parseEntityId } from "@/lib/entities/service";
import { toRunEvent } from "@/lib/automations/engine/start/plan";
import { describeAction } from "@/lib/automations/dry-run/describe";
import { EntityNotFoundError, loadRunEntity } from "@/lib/automations/engine/entity";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { followUpOf } from "@/lib/automations/engine/follow-up";
import { actionContext, newLeg, redact } from "@/lib/automations/engine/leg";
import { prepareAction } from "@/lib/automations/engine/prepare";
import { codeAction } from "@/lib/automations/nodes/code/code";
import { codeExecutor } from "@/lib/automations/nodes/code/code.execute";
import { ActionError, type ActionOutput } from "@/lib/automations/nodes/executor";
import { registry } from "@/lib/automations/nodes/registry";
import { triggerPayload } from "@/lib/automations/engine/trigger-payload";
import { SCRIPT_LIMITS } from "@/lib/automations/nodes/code/sandbox";
import { SCRIPT_ACTIONS, type ScriptActionName } from "@/lib/automations/nodes/code/script-actions";

/**
 * "Run on a record" in the code step's editor: the script, as typed, run in the sandbox against a
 * real record of the shop, by the code step's own executor from a leg built as a run builds it
 * (`newLeg`; the record as `loadRunEntity` loads it, status pinned as the trigger's event would).
 * Nothing else happens: the actions the script asks for are prepared by their executors and
 * described in the dry run's words, never taken, and nothing is written.
 */

/**
 * A step tried from its settings on a real record of the shop: the fields that pick the record and
 * the trigger, beside the step's own (`codePreviewInput`, the AI step's `aiTryInput`), and the rule
 * that a record needs both its domain and its id (`namesWholeRecord`).
 */
export const recordToTryShape = {
  domain: z.enum(DOMAINS).optional(),
  entityId: z.string().min(1).max(200).optional(),
  /** The flow's trigger (`auto.trigger.order_paid`): which event the run would be started by. */
  triggerType: z.string().max(200).optional(),
};

export const namesWholeRecord: [
  check: (input: { domain?: unknown; entityId?: unknown }) => boolean,
  issue: { message: string; path: string[] },
] = [
  (input) => (input.entityId === undefined) === (input.domain === undefined),
  { message: "a record needs both its domain and its id", path: ["entityId"] },
];

export const codePreviewInput = z
  .strictObject({
    source: z.string().max(SCRIPT_LIMITS.sourceBytes, "is longer than 64 KB"),
    ...recordToTryShape,
  })
  .refine(...namesWholeRecord);

/**
 * The record a step is tried on as it is now (`current`), and as the trigger's event sees it
 * (`entity`, its status pinned to the event's), with that event. Nulls without a record.
 */
export async function recordToTry(
  tenantId: string,
  input: { domain?: Domain; entityId?: string; triggerType?: string },
  now: Date,
) {
  const current =
    input.domain && input.entityId
      ? await loadRecord(tenantId, input.domain, input.entityId, eventFor(undefined, null, now))
      : null;
  const event = eventFor(input.triggerType, current, now);
  const entity = current && input.domain ? await loadRecord(tenantId, input.domain, current.id, event) : null;
  return { current, entity, event };
}

export type CodePreviewInput = z.input<typeof codePreviewInput>;

export interface CodePreviewAction {
  /** The `actions.*` call: `tag`, `email`, … */
  call: ScriptActionName;
  type: string;
  /** What it would do, as the dry run says it ("Would add tag 'vip' to order #1001."). */
  sentences: string[];
  /** Its params as its executor would take them (templates filled, secrets redacted). */
  request: Record<string, unknown> | null;
  /** Why a run would fail on this action (its executor refuses the params). */
  error?: string;
}

export type CodePreview = {
  record: { domain: string; id: string; label: string } | null;
  /** The event the script saw, by type (`order.paid`). */
  eventType: string;
  notes: string[];
  ms: number;
} & (
  | { ok: true; actions: CodePreviewAction[]; result: Record<string, unknown> }
  | { ok: false; error: string; line: number | null }
);

const PREVIEW_ID = "code-preview";

/** The event the trigger would fire for this record (as the dry run builds it: `triggerPayload`). */
export function eventFor(triggerType: string | undefined, entity: RunEntity | null, now: Date): RunEvent {
  const definition = triggerType ? registry.get(triggerType) : undefined;
  if (triggerType && definition?.category !== "trigger")
    throw new AppError(422, "invalid", `'${triggerType}' is not a trigger.`);
  const type = definition?.event ?? (entity ? `${entity.domain}.updated` : "code_preview");
  return toRunEvent({
    id: PREVIEW_ID,
    type,
    domain: entity?.domain ?? definition?.entityDomain ?? "webhook",
    entityId: entity?.id ?? null,
    payload: triggerType ? triggerPayload({ type: triggerType, params: {} }, entity) : {},
    createdAt: now,
  });
}

export async function loadRecord(tenantId: string, domain: Domain, rawId: string, event: RunEvent) {
  const id = parseEntityId(rawId);
  try {
    return await loadRunEntity(getDb(), tenantId, { ...event, entityId: id, domain }, { pinStatus: true });
  } catch (error) {
    if (error instanceof EntityNotFoundError) throw notFound(`The ${DOMAIN_LABELS[domain].one} '${id}'`);
    throw error;
  }
}

/** Runs `body.source` against the chosen record of `tenantId`'s shop; takes no action. */
export async function previewCode(
  tenantId: string,
  body: unknown,
  options: { timeZone?: string } = {},
): Promise<CodePreview> {
  const input = parseOrThrow(codePreviewInput, body ?? {}, "The script cannot be tried");
  const now = new Date();
  const { current, entity, event } = await recordToTry(tenantId, input, now);

  const notes: string[] = ["Nothing was changed or sent: the script's actions are listed, not taken."];
  if (current && entity && entity.data.status !== current.data.status)
    notes.push(
      `The status is taken as '${String(entity.data.status)}', the status this trigger fires for; it is '${String(current.data.status)}' now.`,
    );
  if (/\bsteps\s*[.[]/.test(input.source))
    notes.push("Outputs of earlier steps (steps.…) only exist in a real run, so steps is empty here.");

  const leg = newLeg({
    tenantId,
    runId: PREVIEW_ID,
    automationId: PREVIEW_ID,
    automationName: "Code preview",
    automationVersion: 0,
    leg: 1,
    event,
    entity,
    now,
    timeZone: options.timeZone ?? "UTC",
  });
  const record = entity
    ? { domain: entity.domain, id: entity.id, label: entityLabel(entity.domain, entity.id, entity.data) }
    : null;
  const base = { record, eventType: event.type, notes };

  // The code step's own executor runs the script (its `send` only runs the sandbox, with the input
  // it builds from the leg), and `followUpOf` reads its actions as the engine and the dry run do.
  const step = { nodeId: PREVIEW_ID, nodeType: codeAction.type };
  let output: ActionOutput;
  try {
    output = await codeExecutor.send({ source: input.source }, actionContext(leg, step.nodeId));
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    const line = typeof error.output.line === "number" ? error.output.line : null;
    return { ...base, ok: false, error: error.message, line, ms: msOf(error.output) };
  }
  const followUp = followUpOf(step, output)!;
  const subject = entity ? entityName(entity.domain, entity.id, entity.data) : "the record this run is about";
  const actions = followUp.actions.map((planned): CodePreviewAction => {
    const call = callOf(planned.nodeType);
    if (planned.kind !== "action") return { call, type: planned.nodeType, sentences: [], request: null };
    const prepared = prepareAction(leg, planned);
    const request = prepared.request ? redact(prepared.request) : null;
    return prepared.ok && request
      ? {
          call,
          type: planned.nodeType,
          sentences: describeAction(planned.nodeType, request, subject, entity, leg.timeZone),
          request,
        }
      : { call, type: planned.nodeType, sentences: [], request, error: prepared.ok ? "" : prepared.error };
  });
  return { ...base, ok: true, actions, result: followUp.output, ms: msOf(output) };
}

function msOf(output: ActionOutput): number {
  return typeof output.ms === "number" ? output.ms : 0;
}

/** The `actions.*` name that asks for an action type (each type has one). */
function callOf(type: string): ScriptActionName {
  return (Object.keys(SCRIPT_ACTIONS) as ScriptActionName[]).find(
    (name) => SCRIPT_ACTIONS[name].type === type,
  )!;
}
