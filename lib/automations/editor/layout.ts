import dagre from "@dagrejs/dagre";
import type { StepEdge, StepNode } from "./flow";
import { NODE_HEIGHT, NODE_WIDTH } from "./node-size";

export { NODE_HEIGHT, NODE_WIDTH };

/**
 * Automatic layout of a flow with dagre: ranks follow the connections, top to bottom by default.
 * Pure: returns new nodes with new positions and leaves everything else as it was.
 */

/** Space between steps of one rank, and between ranks. */
const NODE_GAP = 48;
const RANK_GAP = 72;

export interface LayoutOptions {
  /** `TB` (the default) puts the trigger on top; `LR` puts it on the left. */
  direction?: "TB" | "LR";
}

export function autoLayout(nodes: StepNode[], edges: StepEdge[], options: LayoutOptions = {}): StepNode[] {
  if (nodes.length === 0) return [];
  const g = new dagre.graphlib.Graph<
    object,
    { width: number; height: number; x?: number; y?: number },
    object
  >({ multigraph: true });
  g.setGraph({ rankdir: options.direction ?? "TB", nodesep: NODE_GAP, ranksep: RANK_GAP });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of edges) {
    // A connection to a step that is not on the canvas would make dagre invent a node for it.
    if (g.hasNode(edge.source) && g.hasNode(edge.target)) g.setEdge(edge.source, edge.target, {}, edge.id);
  }
  dagre.layout(g);
  return nodes.map((node) => {
    const placed = g.node(node.id);
    // dagre gives centres; React Flow positions a node by its top-left corner.
    const x = Math.round((placed.x ?? 0) - NODE_WIDTH / 2);
    const y = Math.round((placed.y ?? 0) - NODE_HEIGHT / 2);
    return { ...node, position: { x, y } };
  });
}
