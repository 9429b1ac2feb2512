import type { PlannedStep } from "@/lib/automations/engine/interpreter";
import type { LegContext } from "@/lib/automations/engine/leg";
import type { PreparedWait } from "@/lib/automations/engine/prepare";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import type { Graph } from "@/lib/automations/graph/schema";
import { handleLabel } from "@/lib/automations/nodes/catalog";
import { templateContext } from "@/lib/automations/engine/leg";
import { formatInZone } from "@/lib/time/cron";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { flowDomain, registry, summariseNode, type ActionType } from "@/lib/automations/nodes/registry";
import { eventLabel } from "@/lib/automations/nodes/timing/event-types";
import { describeHours, waitForEvent } from "@/lib/automations/nodes/timing/wait-for-event";
import { HOLD_REASONS, type HoldReason } from "@/lib/automations/nodes/actions/store";

/**
 * The dry run's words: how a step is named, what an action would do ("Would add tag 'vip' to
 * order #1001.", from the action's request as the executor prepared it, templates filled in), why
 * a condition came out as it did, and when a wait would end. What a run would fail on is not said
 * here: the pipeline's `prepareAction` says it, for runs and dry runs alike.
 */

export function text(value: unknown): string {
  return typeof value === "string"
    ? value
    : value === undefined || value === null
      ? ""
      : JSON.stringify(value);
}

export function excerpt(value: unknown, max = 120): string {
  const flat = text(value)
    .replace(/<br>\n?/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

type Describe = (
  request: Record<string, unknown>,
  subject: string,
  entity: RunEntity | null,
  timeZone: string,
) => string[];

/** An ISO time the executor prepared, in the shop's zone: "Sat 5 Dec 2026, 10:00 CET". */
function when(value: unknown, timeZone: string): string {
  const at = typeof value === "string" || value instanceof Date ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? formatInZone(at, timeZone) : text(value);
}

function hasTag(entity: RunEntity | null, tag: string): boolean {
  return Array.isArray(entity?.data.tags) && entity.data.tags.includes(tag);
}

/** "vip, gold" as the dry run says them: "vip, gold". */
function list(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(", ") : text(value);
}

function inStore(request: Record<string, unknown>): string {
  return request.platform === "woocommerce" ? "in WooCommerce" : "in Shopify";
}

function holdReason(value: unknown): string {
  const reason = text(value);
  return Object.hasOwn(HOLD_REASONS, reason) ? HOLD_REASONS[reason as HoldReason].toLowerCase() : reason;
}

/**
 * What each action would do, from the request its executor prepared. A complete record over the
 * action types, so a new action without a sentence here is a compile error.
 */
const DESCRIBE: Record<ActionType, Describe> = {
  "auto.action.add_tag": (request, subject, entity) => {
    const tag = text(request.tag);
    return [
      `Would add tag '${tag}' to ${subject}${hasTag(entity, tag) ? "; it already has it, so nothing would change" : ""}.`,
    ];
  },
  "auto.action.remove_tag": (request, subject, entity) => {
    const tag = text(request.tag);
    return [
      `Would remove tag '${tag}' from ${subject}${entity && !hasTag(entity, tag) ? "; it does not have it, so nothing would change" : ""}.`,
    ];
  },
  "auto.action.add_note": (request, subject) => [
    `Would add a note to ${subject}: “${excerpt(request.body)}”`,
  ],
  // The body is shown rendered (the step's `email`), not as HTML source.
  "auto.action.send_email": (request) => [
    `Would email ${text(request.to)}: subject '${text(request.subject)}'`,
  ],
  "auto.action.http_request": (request) => {
    const url = text(request.url);
    const headers = Object.entries((request.headers as Record<string, unknown> | undefined) ?? {});
    const carries = request.credentialId
      ? "its credential's headers and an Idempotency-Key header"
      : "an Idempotency-Key header";
    const detail = [`Would send ${text(request.method)} ${url}, with ${carries}.`];
    if (headers.length > 0) detail.push(`Headers: ${headers.map(([k, v]) => `${k}: ${text(v)}`).join(", ")}`);
    if (request.body !== null && request.body !== undefined)
      detail.push(`Body: ${excerpt(request.body, 300)}`);
    return detail;
  },
  "auto.action.create_task": (request, _subject, _entity, timeZone) => {
    const due = typeof request.dueAt === "string" ? `, due ${when(request.dueAt, timeZone)}` : "";
    const assignee = typeof request.assignee === "string" ? `, assigned to ${request.assignee}` : "";
    return [`Would create the task '${text(request.title)}'${due}${assignee}.`];
  },
  "auto.action.later": (request, _subject, _entity, timeZone) => {
    const detail = [
      `Would run this automation again from step '${text(request.step)}' at ${when(request.due, timeZone)}.`,
    ];
    if (typeof request.key === "string")
      detail.push(`It would replace any later step waiting under the key '${request.key}'.`);
    return detail;
  },
  // The dry run runs the script and lists each action it asks for on its own line, after this one.
  "auto.action.code": () => ["Would run the script in the sandbox, then take the actions it asks for."],
  // Asks nothing: the prompt as it would be sent, tokens filled in from the record.
  "auto.action.ai": (request) => [
    `Would ask the model: ${excerpt(text(request.prompt), 1000)}`,
    request.task === "classify" && Array.isArray(request.categories)
      ? `The answer must be one of: ${request.categories.map(String).join(", ")}.`
      : request.task === "extract" && request.fields && typeof request.fields === "object"
        ? `The answer would give: ${Object.keys(request.fields).join(", ")}.`
        : `The answer would be a text of at most ${text(request.maxWords)} words.`,
    "The dry run asks nothing, so the steps after it see no answer.",
  ],
  // Posts nothing: the message as Slack would get it, tokens filled in (the run link a run adds last).
  "auto.action.slack": (request) => [
    `Would post to Slack: “${excerpt(text(request.text).replace(/\n<[^>\n]*\|View the run in Tillflow>$/, ""), 1000)}”`,
    "The message would end with a link back to the run.",
  ],
  // Store actions write nothing in a dry run or a backtest: what they would write, and where.
  "auto.action.store_add_tags": (request) => [
    `Would add tags ${list(request.tags)} to ${text(request.label)} ${inStore(request)}.`,
  ],
  "auto.action.store_remove_tags": (request) => [
    `Would remove tags ${list(request.tags)} from ${text(request.label)} ${inStore(request)}.`,
  ],
  "auto.action.store_add_order_note": (request) => [
    `Would add the note “${excerpt(request.note, 1000)}” to ${text(request.label)} ${inStore(request)}.`,
  ],
  "auto.action.store_hold_fulfillment": (request) => [
    request.platform === "woocommerce"
      ? `Would set ${text(request.label)} On hold in WooCommerce.`
      : `Would hold the open fulfillment orders of ${text(request.label)} in Shopify (reason: ${holdReason(request.reason)}).`,
  ],
  "auto.action.store_release_hold": (request) => [
    request.platform === "woocommerce"
      ? `Would set ${text(request.label)} back to Processing in WooCommerce.`
      : `Would release the holds on the fulfillment orders of ${text(request.label)} in Shopify.`,
  ],
  "auto.action.store_set_metafield": (request) => [
    `Would set ${text(request.namespace)}.${text(request.key)} to “${excerpt(request.value, 200)}” on ${text(request.label)} ${inStore(request)}.`,
  ],
  "auto.action.mark_carts_abandoned": (request) => [
    `Would mark open carts idle for ${text(request.idleMinutes)} minutes as abandoned, in batches.`,
  ],
  "auto.action.mark_invoices_overdue": () => [
    "Would mark sent invoices past their due date as overdue, in batches.",
  ],
  "auto.action.purge_run_history": (request) => [
    `Would delete finished runs older than ${text(request.retentionDays)} days, in batches.`,
  ],
};

export function describeAction(
  type: string,
  request: Record<string, unknown>,
  subject: string,
  entity: RunEntity | null,
  timeZone = "UTC",
): string[] {
  return Object.hasOwn(DESCRIBE, type)
    ? DESCRIBE[type as ActionType](request, subject, entity, timeZone)
    : [`Would run '${type}'.`];
}

/**
 * How a step is named: its node's label and summary, its `{token}`s filled in from the leg (the
 * record the dry run is on); an action a code step asked for says so.
 */
export function stepHeading(graph: Graph, step: PlannedStep, leg: LegContext) {
  // A node of the graph, or (undefined) an action a code step asked for.
  const node = graph.nodes.find((n) => n.id === step.nodeId);
  const words = { domain: leg.entity?.domain ?? flowDomain(graph), values: templateContext(leg) };
  return {
    nodeId: step.nodeId,
    nodeType: step.nodeType,
    label: registry.get(step.nodeType)!.label,
    leg: leg.leg,
    summary:
      node || step.kind !== "action"
        ? summariseNode(node ?? { type: step.nodeType }, words)
        : `From the script: ${summariseNode({ type: step.nodeType, params: step.params }, words)}`,
  };
}

/** Why a condition came out as it did — what it read, against what — and the way it follows. */
export function conditionDetail(why: ConditionWhy | null, result: boolean): string {
  const verdict = `so it follows '${handleLabel(result ? "true" : "false")}'.`;
  return why ? `${why.text}, ${verdict}` : `It is ${result ? "true" : "false"}, ${verdict}`;
}

/** "in 2 days", "in 3 hours", "in 45 minutes". */
function fromNow(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const [amount, unit] =
    minutes >= 2 * 1440
      ? [Math.round(minutes / 1440), "day"]
      : minutes >= 120
        ? [Math.round(minutes / 60), "hour"]
        : [minutes, "minute"];
  return `in ${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/**
 * What a wait would do, its time in the shop's zone; an approval, which nobody can decide in a
 * dry run, times out.
 */
export function waitDetail(
  wait: Extract<PreparedWait, { ok: true }>,
  startedAt: Date,
  timeZone: string,
): string {
  return wait.kind === "approval"
    ? `Would wait for a decision ('${String(wait.output.title)}'), timing out after ${String(wait.output.timeoutHours)} h, then follow '${handleLabel("timed_out")}'.`
    : `Would wait until ${formatInZone(wait.resumeAt, timeZone)}, ${fromNow(wait.resumeAt.getTime() - startedAt.getTime())}.`;
}

/**
 * What a wait for an event would do: a dry run cannot know whether the event will come, so, as
 * with an approval, it follows 'Timed out' once the time limit has passed. Null for another step,
 * or one whose settings do not parse (the wait's own error says so).
 */
export function eventWaitDetail(
  node: { type: string; params?: unknown },
  resumeAt: Date,
  timeZone: string,
): string | null {
  if (node.type !== waitForEvent.type) return null;
  const parsed = waitForEvent.params.safeParse(node.params ?? {});
  if (!parsed.success) return null;
  const { event, match, timeoutHours } = parsed.data;
  const which = match.kind === "same_record" ? " about the same record" : ` where ${match.path} matches`;
  return `Would wait up to ${describeHours(timeoutHours)} for '${eventLabel(event)}'${which}, timing out ${formatInZone(resumeAt, timeZone)}, then follow '${handleLabel("timed_out")}'.`;
}
