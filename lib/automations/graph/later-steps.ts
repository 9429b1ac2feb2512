import type { Graph } from "./schema";

/**
 * The step names of a graph's Later triggers, in the order they are drawn. On its own, without the
 * Later action's definition (and zod), because the flow editor's first paint needs it.
 */
export function laterSteps(graph: Graph | null): string[] {
  const steps = (graph?.nodes ?? [])
    .filter((n) => n.type === "auto.trigger.later" && typeof n.params.step === "string")
    .map((n) => String(n.params.step));
  return [...new Set(steps)];
}
