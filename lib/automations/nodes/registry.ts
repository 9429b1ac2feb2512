import { isDomain, type Domain } from "@/lib/domains/domains";
import { addNote } from "./add-note/add-note";
import { aiAction } from "./ai/ai";
import { addTag } from "./tags/add-tag";
import { codeAction } from "./code/code";
import { createTask } from "./create-task/create-task";
import { laterAction } from "./later/later";
import { markCartsAbandoned, markInvoicesOverdue, purgeRunHistory } from "./platform/platform";
import { httpRequest } from "./http-request/http-request";
import { removeTag } from "./tags/remove-tag";
import { sendEmail } from "./send-email/send-email";
import { slackAction } from "./slack/slack";
import {
  storeAddOrderNote,
  storeAddTags,
  storeHoldFulfillment,
  storeReleaseHold,
  storeRemoveTags,
  storeSetMetafield,
} from "./store/store";
import { fieldCondition } from "./conditions/field";
import { hasTagCondition } from "./conditions/has-tag";
import { split } from "./split/split";
import { approval } from "./timing/approval";
import { wait } from "./timing/wait";
import { waitUntil } from "./timing/wait-until";
import { waitForEvent } from "./timing/wait-for-event";
import { TRIGGER_DEFINITIONS, TRIGGER_FILTERS } from "./triggers/triggers";
import { effectiveDomainIn, nodeInfo, type NodeInfo } from "./catalog";
import type {
  ConditionDefinition,
  NodeCategory,
  NodeDefinition,
  SplitDefinition,
  TriggerDomain,
} from "./types";
import { describeTokens, type TokenWords } from "@/lib/automations/tokens/describe";

/**
 * The browser-safe node registry: every node type Tillflow knows, one line each, its definition
 * (params schema, handles, sentences, labels, ready-issue rules) imported from its own folder
 * (docs/adding-a-step.md). Executors are server-only and live in `executors.ts`, keyed by the same types.
 * Timing nodes (category `wait`) have no executor: the engine persists the wait and resumes
 * the run, so they are not in `ActionType` and `EXECUTORS` never names them.
 */
export const NODE_DEFINITIONS = {
  ...TRIGGER_DEFINITIONS,
  "auto.condition.field": fieldCondition,
  "auto.condition.has_tag": hasTagCondition,
  "auto.action.add_tag": addTag,
  "auto.action.remove_tag": removeTag,
  "auto.action.add_note": addNote,
  "auto.action.send_email": sendEmail,
  "auto.action.http_request": httpRequest,
  "auto.action.create_task": createTask,
  "auto.action.later": laterAction,
  "auto.action.code": codeAction,
  "auto.action.ai": aiAction,
  "auto.action.slack": slackAction,
  "auto.action.store_add_tags": storeAddTags,
  "auto.action.store_remove_tags": storeRemoveTags,
  "auto.action.store_add_order_note": storeAddOrderNote,
  "auto.action.store_hold_fulfillment": storeHoldFulfillment,
  "auto.action.store_release_hold": storeReleaseHold,
  "auto.action.store_set_metafield": storeSetMetafield,
  "auto.action.mark_carts_abandoned": markCartsAbandoned,
  "auto.action.mark_invoices_overdue": markInvoicesOverdue,
  "auto.action.purge_run_history": purgeRunHistory,
  "auto.control.wait": wait,
  "auto.control.wait_until": waitUntil,
  "auto.control.approval": approval,
  "auto.control.wait_for_event": waitForEvent,
  "auto.control.split": split,
};

type Definitions = typeof NODE_DEFINITIONS;
export type NodeType = keyof Definitions;
type TypesOf<C extends NodeCategory> = {
  [K in NodeType]: Definitions[K]["category"] extends C ? K : never;
}[NodeType];
export type TriggerType = TypesOf<"trigger">;
export type ConditionType = TypesOf<"condition">;
export type ActionType = TypesOf<"action">;
export type WaitType = TypesOf<"wait">;

function isConditionDefinition(definition: NodeDefinition): definition is ConditionDefinition {
  return (
    definition.category === "condition" &&
    typeof (definition as Partial<ConditionDefinition>).evaluate === "function"
  );
}

function isSplitDefinition(definition: NodeDefinition): definition is SplitDefinition {
  return (
    definition.category === "condition" &&
    typeof (definition as Partial<SplitDefinition>).split === "function"
  );
}

/**
 * A registry over a set of definitions. The app uses `registry`; tests build their own to add
 * node kinds the catalog does not have yet.
 */
export function createRegistry(definitions: Readonly<Record<string, NodeDefinition>>) {
  const all = Object.values(definitions);
  return {
    get(type: string): NodeDefinition | undefined {
      return Object.hasOwn(definitions, type) ? definitions[type] : undefined;
    },
    all(): NodeDefinition[] {
      return [...all];
    },
    byCategory(category: NodeCategory): NodeDefinition[] {
      return all.filter((definition) => definition.category === category);
    },
    isCondition: isConditionDefinition,
    isSplit: isSplitDefinition,
  };
}

export type Registry = ReturnType<typeof createRegistry>;

export const registry: Registry = createRegistry(NODE_DEFINITIONS);

export function isNodeType(type: string): type is NodeType {
  return Object.hasOwn(NODE_DEFINITIONS, type);
}

/** The triggers that listen to an event type: `order.paid` → [order_paid]. */
export function triggerForEvent(eventType: string): NodeDefinition[] {
  return registry.byCategory("trigger").filter((definition) => definition.event === eventType);
}

/**
 * Whether a trigger node fires for an event: the event type must be the trigger's, and the
 * trigger's own filter (status change from/to, low-stock threshold) must pass. Pure.
 */
export function triggerMatches(
  trigger: NodeDefinition | string,
  params: unknown,
  event: { type: string; payload: Record<string, unknown> },
): boolean {
  const definition = typeof trigger === "string" ? registry.get(trigger) : trigger;
  if (!definition || definition.category !== "trigger" || definition.event !== event.type) return false;
  const filter = Object.hasOwn(TRIGGER_FILTERS, definition.type)
    ? TRIGGER_FILTERS[definition.type as TriggerType]
    : undefined;
  return filter ? filter(params, event.payload ?? {}) : true;
}

/**
 * The domain of the runs a trigger node starts: its `entityDomain`, except that a schedule with
 * an audience starts one run per customer. `null` for a node that is not a known trigger.
 */
export function effectiveDomain(triggerNode: { type: string; params?: unknown }): TriggerDomain | null {
  return effectiveDomainIn(registry, triggerNode);
}

/** The registry as the browser's catalog (no schemas): what the editor paints before any edit. */
export function nodeCatalog(): NodeInfo[] {
  return registry.all().map(nodeInfo);
}

/** Whether runs of this domain have a stored record to read and change. */
export function hasRecord(domain: TriggerDomain | null): domain is Domain {
  return domain !== null && isDomain(domain);
}

/**
 * Every action says what it would do in a dry run (`describeDryRun`): an action without one is a
 * compile error here, naming it, as an action without an executor is in `executors.ts`.
 */
type DescribedActions = {
  [K in ActionType]: Definitions[K] extends { describeDryRun: (...args: never[]) => string[] } ? K : never;
}[ActionType];
const _everyActionDescribed: Record<Exclude<ActionType, DescribedActions>, never> = {};

/**
 * The sentence on a node: its definition's summary, or while its params are invalid its draft
 * summary ("Wait (set a duration)") if it has one, else its label.
 */
/**
 * The kind of record a flow's runs are about, from its first trigger: its summaries describe
 * tokens with it ("the order's number"). Null without a trigger.
 */
export function flowDomain(
  graph: { nodes: readonly { type: string; params?: unknown }[] } | null,
): TriggerDomain | null {
  const trigger = graph?.nodes.find((n) => registry.get(n.type)?.category === "trigger");
  return trigger ? effectiveDomain(trigger) : null;
}

export function summariseNode(node: { type: string; params?: unknown }, words: TokenWords = {}): string {
  const definition = registry.get(node.type);
  if (!definition) return node.type;
  const parsed = definition.params.safeParse(node.params ?? {});
  if (!parsed.success) {
    const draft = isPlainRecord(node.params) ? node.params : {};
    return describeTokens(definition.summariseDraft?.(draft) ?? definition.label, words);
  }
  try {
    // Tokens in words (filled in or described) before the sentence is made, so a param that is
    // one token reads as a phrase: "Email the order's email", not "Email {entity.email}".
    return describeTokens(
      definition.summarise(describeParams(parsed.data, definition.templated, words)),
      words,
    );
  } catch {
    return definition.label;
  }
}

/** Params with the tokens of their templated strings (and string records) in words. */
function describeParams<P>(params: P, templated: readonly string[] | undefined, words: TokenWords): P {
  if (!isPlainRecord(params) || !templated) return params;
  const out: Record<string, unknown> = { ...params };
  for (const param of templated) {
    const value = out[param];
    if (typeof value === "string") out[param] = describeTokens(value, words);
    else if (isPlainRecord(value))
      out[param] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? describeTokens(v, words) : v]),
      );
  }
  // Only the texts of templated strings changed; keys and kinds are as parsed.
  return out as P;
}

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
