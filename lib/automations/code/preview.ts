import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import { DOMAIN_LABELS, DOMAINS, STATUS_EVENTS, type Domain } from "@/lib/entities/domains";
import { entityLabel, entityName } from "@/lib/entities/options";
import { parseEntityId } from "@/lib/entities/service";
import { toRunEvent } from "@/lib/automations/dispatch";
import { describeAction } from "@/lib/automations/dry-run-actions";
import { EntityNotFoundError, loadRunEntity, type RunEntity } from "@/lib/automations/engine/entity";
import { eventView, newLeg, redact, tokenRecord } from "@/lib/automations/engine/leg";
import { prepareAction } from "@/lib/automations/engine/prepare";
import { registry } from "@/lib/automations/nodes/registry";
import { SCRIPT_LIMITS, runScript } from "./sandbox";
import type { ScriptActionName } from "./script-actions";

/**
 * "Run on a record" in the code step's editor: the script, as typed, run in the sandbox against a
 * real record of the shop, with the input a real run's code step gets (`eventView`, `tokenRecord`
 * of the record as `loadRunEntity` loads it, status pinned as the trigger's event would pin it).
 * Nothing else happens: the actions the script asks for are prepared by their executors and
 * described in the dry run's words, never taken, and nothing is written.
 */

export const codePreviewInput = z
  .strictObject({
    source: z.string().max(SCRIPT_LIMITS.sourceBytes, "is longer than 64 KB"),
    domain: z.enum(DOMAINS).optional(),
    entityId: z.string().min(1).max(200).optional(),
    /** The flow's trigger (`auto.trigger.order_paid`): which event the run would be started by. */
    triggerType: z.string().max(200).optional(),
  })
  .refine((input) => (input.entityId === undefined) === (input.domain === undefined), {
    message: "a record needs both its domain and its id",
    path: ["entityId"],
  });

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

/**
 * The event the trigger would fire for this record, as its upsert records it: a status event
 * carries `{ from, to }` (and pins the status to `to`), `<domain>.created` the status it has.
 */
function eventFor(triggerType: string | undefined, entity: RunEntity | null, now: Date): RunEvent {
  const definition = triggerType ? registry.get(triggerType) : undefined;
  if (triggerType && definition?.category !== "trigger")
    throw new AppError(422, "invalid", `'${triggerType}' is not a trigger.`);
  const type = definition?.event ?? (entity ? `${entity.domain}.updated` : "code_preview");
  const status = typeof entity?.data.status === "string" ? entity.data.status : null;
  let payload: Record<string, unknown> = {};
  if (entity && type === `${entity.domain}.created`) payload = { status };
  const named = entity
    ? Object.entries(STATUS_EVENTS[entity.domain] ?? {}).find(([, event]) => event === type)?.[0]
    : undefined;
  if (named) payload = { from: status === named ? null : status, to: named };
  return toRunEvent({
    id: PREVIEW_ID,
    type,
    domain: entity?.domain ?? definition?.entityDomain ?? "webhook",
    entityId: entity?.id ?? null,
    payload,
    createdAt: now,
  });
}

async function loadRecord(tenantId: string, domain: Domain, rawId: string, event: RunEvent) {
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
  // The record as it is, then as the trigger's event sees it (its status pinned to the event's).
  const current =
    input.domain && input.entityId
      ? await loadRecord(tenantId, input.domain, input.entityId, eventFor(undefined, null, now))
      : null;
  const event = eventFor(input.triggerType, current, now);
  const entity = current && input.domain ? await loadRecord(tenantId, input.domain, current.id, event) : null;

  const notes: string[] = ["Nothing was changed or sent: the script's actions are listed, not taken."];
  if (current && entity && entity.data.status !== current.data.status)
    notes.push(
      `The status is taken as '${String(entity.data.status)}', the status this trigger fires for; it is '${String(current.data.status)}' now.`,
    );
  if (/\bsteps\s*[.[]/.test(input.source))
    notes.push("Outputs of earlier steps (steps.…) only exist in a real run, so steps is empty here.");

  const outcome = await runScript(input.source, {
    event: eventView(event),
    entity: tokenRecord(entity),
    steps: {},
    variables: {},
  });
  const base = {
    record: entity
      ? { domain: entity.domain, id: entity.id, label: entityLabel(entity.domain, entity.id, entity.data) }
      : null,
    eventType: event.type,
    notes,
    ms: outcome.ms,
  };
  if (!outcome.ok) return { ...base, ok: false, error: outcome.error, line: outcome.line };

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
  const subject = entity ? entityName(entity.domain, entity.id, entity.data) : "the record this run is about";
  const actions = outcome.actions.map((action, index): CodePreviewAction => {
    const prepared = prepareAction(leg, {
      kind: "action",
      nodeId: `${PREVIEW_ID}-${index + 1}`,
      nodeType: action.type,
      params: action.params,
    });
    const request = prepared.request ? redact(prepared.request) : null;
    return prepared.ok
      ? {
          call: action.call,
          type: action.type,
          sentences: describeAction(action.type, request!, subject, entity),
          request,
        }
      : { call: action.call, type: action.type, sentences: [], request, error: prepared.error };
  });
  return { ...base, ok: true, actions, result: outcome.result };
}
