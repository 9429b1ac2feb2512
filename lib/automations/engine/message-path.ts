import { upstreamOf } from "@/lib/automations/graph/reachability";
import { registry } from "@/lib/automations/nodes/registry";
import type { ConditionDefinition } from "@/lib/automations/nodes/types";
import type { Graph } from "@/lib/automations/graph/schema";
import type { ActionStep } from "./advance";
import { evaluatorFor } from "./evaluate";
import type { LegContext } from "./leg";
import type { Leg } from "./leg-state";
import { stepLabel } from "./step-labels";

/*
 * A deferred marketing message's path (lib/messaging): the conditions its leg passed on the way
 * to it, kept with the deferral, and checked again against the record as it is when its turn
 * comes — a customer who ordered meanwhile gets no cart-recovery email (as Klaviyo's flow filters).
 */

export type PathCondition = { nodeId: string; result: boolean };

/** The conditions this leg decided that lead to `step`, with their results. */
export function messagePath(
  leg: Leg,
  step: ActionStep,
): { path: PathCondition[]; pathChanged: string | null } {
  const path: PathCondition[] = [];
  const upstream = upstreamOf(leg.graph, step.nodeId);
  for (const planned of leg.plan.slice(0, leg.cursor)) {
    if (planned.kind !== "condition" || planned.error) continue;
    if (upstream.has(planned.nodeId)) path.push({ nodeId: planned.nodeId, result: planned.result });
  }
  const deferred = leg.ctx.deferred;
  return { path, pathChanged: deferred?.nodeId === step.nodeId ? deferred.changed : null };
}

/**
 * Why a deferred message's path no longer holds, or null: each condition decided again against
 * the leg's record and outputs as they are now. A condition gone from the graph is left out.
 */
export function pathChange(ctx: LegContext, graph: Graph, path: PathCondition[]): string | null {
  const evaluate = evaluatorFor(ctx);
  for (const { nodeId, result } of path) {
    const node = graph.nodes.find((n) => n.id === nodeId);
    const definition = node ? registry.get(node.type) : undefined;
    if (!node || !definition || !registry.isCondition(definition)) continue;
    let now: boolean;
    try {
      now = evaluate(node, definition as ConditionDefinition);
    } catch {
      now = !result;
    }
    if (now !== result)
      return `Skipped: when its turn came, a condition on its path no longer held ('${stepLabel(graph, nodeId, node.type)}' is now ${now ? "true" : "false"}).`;
  }
  return null;
}

const marketing = new WeakMap<Graph, boolean>();

const isMarketingSend = (type: string, params: Record<string, unknown> | undefined) =>
  params?.purpose === "marketing" && registry.get(type)?.customerFacing?.(params ?? {}) === true;

/** Whether a graph has a customer-facing marketing step at all (cached per graph). */
export function sendsMarketing(graph: Graph): boolean {
  let answer = marketing.get(graph);
  if (answer === undefined) {
    answer = graph.nodes.some((node) => isMarketingSend(node.type, node.params));
    marketing.set(graph, answer);
  }
  return answer;
}

/**
 * Whether what is left of the leg's plan sends marketing to a customer (its customer is then
 * locked first): a leg that only reaches a wait before its email, as most first legs of a
 * reminder flow do, locks nobody.
 */
export function legSendsMarketing(leg: Leg): boolean {
  if (!sendsMarketing(leg.graph)) return false;
  for (let i = leg.cursor; i < leg.plan.length; i++) {
    const step = leg.plan[i]!;
    if (step.kind === "action" && isMarketingSend(step.nodeType, step.params)) return true;
  }
  return false;
}
