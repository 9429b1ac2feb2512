import type { ConditionDefinition } from "@/lib/automations/nodes/types";
import type { GraphNode } from "@/lib/automations/graph/schema";
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
