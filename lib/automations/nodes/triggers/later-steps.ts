import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import { LATER_TRIGGER } from "./trigger-types";

/*
 * A graph's Later triggers by their step names. On their own, without the Later action's
 * definition (and zod), because the flow editor's first paint and the engine's resume need them.
 */

/** The step names of a graph's Later triggers, in the order they are drawn. */
export function laterSteps(graph: Graph | null): string[] {
  const steps = (graph?.nodes ?? [])
    .filter((n) => n.type === LATER_TRIGGER && typeof n.params.step === "string")
    .map((n) => String(n.params.step));
  return [...new Set(steps)];
}

/** The Later trigger a later step of this name starts at, or undefined when the graph has none. */
export function laterTrigger(graph: Graph | null | undefined, step: unknown): GraphNode | undefined {
  return graph?.nodes.find((n) => n.type === LATER_TRIGGER && n.params.step === step);
}

/** Whether the node is a Later trigger: a run from it has no record, only the step's name. */
export function isLaterTrigger(node: { type: string }): boolean {
  return node.type === LATER_TRIGGER;
}
