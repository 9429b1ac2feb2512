import type { Graph } from "@/lib/automations/graph/schema";
import { splitParams } from "@/lib/automations/nodes/split/split";
import { splitReason, type SplitBy } from "@/lib/automations/nodes/split/split-branches";
import type { SplitStep } from "./advance";

/** Whom the split `nodeId` of `graph` divides; `customer` when its settings no longer parse. */
export function splitByOf(graph: Graph, nodeId: string): SplitBy {
  const node = graph.nodes.find((n) => n.id === nodeId);
  const parsed = splitParams.safeParse(node?.params);
  return parsed.success ? parsed.data.by : "customer";
}

/**
 * Why a subject went down its branch, for the run page and the dry run: "Group B, 40 % of
 * customers — the same customer always takes this branch."
 */
export function splitWhy(graph: Graph, step: SplitStep): string | null {
  if (!step.choice) return null;
  const by = splitByOf(graph, step.nodeId);
  return `${splitReason(step.choice, by)} — the same ${by} always takes this branch.`;
}

/**
 * A split's step as a run records it: its output is exactly the choice `{ branch, label, weight,
 * share }` (what attribution reads), its reason says why; one that could not choose failed.
 */
export function splitStepRecord(graph: Graph, step: SplitStep) {
  return step.choice
    ? {
        category: "condition",
        status: "success" as const,
        output: { ...step.choice },
        reason: splitWhy(graph, step),
      }
    : { category: "condition", status: "failed" as const, error: step.error ?? "No branch was taken." };
}
