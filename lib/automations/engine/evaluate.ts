import { DOMAIN_LABELS } from "@/lib/domains/domains";
import type { ConditionDefinition, ConditionWhy } from "@/lib/automations/nodes/types";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import { registry } from "@/lib/automations/nodes/registry";
import { UndecidedConditionError, type Evaluate } from "./interpreter";
import { readsStepOutput } from "@/lib/automations/nodes/conditions/field";
import { cutRead } from "./kept-output";
import type { LegContext } from "./leg";

/**
 * Evaluates conditions against the leg's entity, event and earlier step outputs. A condition
 * whose stored params no longer parse takes its `false` branch rather than crashing the run; one
 * that reads the cut part of an earlier output throws `UndecidedConditionError` (its step fails, naming it).
 */
export function evaluatorFor(leg: LegContext): Evaluate {
  return (node: GraphNode, definition: ConditionDefinition) => {
    const params = definition.params.safeParse(node.params);
    if (!params.success) return false;
    // A condition on the cut part of an earlier output fails its step rather than guess.
    const path = (params.data as { path?: unknown }).path;
    if (typeof path === "string" && readsStepOutput(path)) {
      const cut = cutRead(leg.steps, path.split(".").slice(1));
      if (cut) throw new UndecidedConditionError(cut);
    }
    return definition.evaluate(params.data, {
      entity: leg.entity?.data ?? null,
      event: { ...leg.event },
      steps: leg.steps,
    });
  };
}

/**
 * Why the condition `nodeId` of `graph` came out `result` in this leg: what it read and what it
 * compared it with (conditions/why.ts). Null when its stored settings no longer parse (it then
 * takes 'false' without reading anything).
 */
export function explainCondition(
  leg: LegContext,
  graph: Graph,
  nodeId: string,
  result: boolean,
): ConditionWhy | null {
  const node = graph.nodes.find((n) => n.id === nodeId);
  const definition = node ? registry.get(node.type) : undefined;
  if (!node || definition?.category !== "condition") return null;
  const params = definition.params.safeParse(node.params);
  if (!params.success) return null;
  return (definition as ConditionDefinition).explain(
    params.data,
    {
      entity: leg.entity?.data ?? null,
      event: { ...leg.event },
      steps: leg.steps,
      subject: leg.entity ? `the ${DOMAIN_LABELS[leg.entity.domain].one}` : "the record",
      timeZone: leg.timeZone,
    },
    result,
  );
}
