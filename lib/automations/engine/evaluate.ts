import type { ConditionDefinition } from "@/lib/automations/nodes/types";
import type { GraphNode } from "@/lib/automations/graph/schema";
import type { Evaluate } from "./interpreter";
import type { LegContext } from "./leg";

/**
 * Evaluates conditions against the leg's entity, event and earlier step outputs. A condition
 * whose stored params no longer parse takes its `false` branch rather than crashing the run.
 */
export function evaluatorFor(leg: LegContext): Evaluate {
  return (node: GraphNode, definition: ConditionDefinition) => {
    const params = definition.params.safeParse(node.params);
    if (!params.success) return false;
    return definition.evaluate(params.data, {
      entity: leg.entity?.data ?? null,
      event: { ...leg.event },
      steps: leg.steps,
    });
  };
}
