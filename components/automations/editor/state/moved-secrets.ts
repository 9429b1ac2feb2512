import type { Graph } from "@/lib/automations/graph/schema";
import type { StepNode } from "@/lib/automations/editor/flow";

/**
 * After a save stored a step's typed-in secret as a credential, the editor takes the saved
 * params (the reference instead of the secret), so later saves do not store it again. A step
 * edited since that save was sent keeps its newer params: the next save moves those (pure).
 */
export function adoptMovedSecrets(
  nodes: StepNode[],
  moved: Record<string, Record<string, unknown>>,
  sent: Graph,
): StepNode[] {
  const sentParams = new Map(sent.nodes.map((node) => [node.id, JSON.stringify(node.params)]));
  return nodes.map((node) => {
    const saved = moved[node.id];
    if (!saved || sentParams.get(node.id) !== JSON.stringify(node.data.params)) return node;
    return { ...node, data: { ...node.data, params: saved } };
  });
}
