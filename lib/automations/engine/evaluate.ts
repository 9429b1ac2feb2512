import { DOMAIN_LABELS } from "@/lib/domains/domains";
import type {
  ConditionDefinition,
  ConditionWhy,
  SplitChoice,
  SplitDefinition,
} from "@/lib/automations/nodes/types";
import { splitPosition, splitSubject } from "./split-hash";
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
  const evaluate: Evaluate = (node: GraphNode, definition: ConditionDefinition) => {
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
  evaluate.split = (node, definition) => splitFor(leg, node, definition);
  return evaluate;
}

/**
 * The branch a split takes in this leg: its subject's stable position (`split-hash.ts`) mapped
 * through the branches' weights. Settings that no longer parse, or weights that add up to nothing,
 * decide nothing: the step fails saying so, and no branch is taken.
 */
function splitFor(leg: LegContext, node: GraphNode, definition: SplitDefinition): SplitChoice {
  const params = definition.params.safeParse(node.params);
  if (!params.success)
    throw new UndecidedConditionError("This split's settings are not valid, so no branch was taken.");
  const subject = splitSubject(definition.by(params.data), leg.entity, leg.event);
  const choice = definition.split(params.data, splitPosition(leg.automationId, node.id, subject));
  if (!choice)
    throw new UndecidedConditionError(
      "This split has no branch with a weight above 0, so no branch was taken.",
    );
  return choice;
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
