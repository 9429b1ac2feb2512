import type { Graph } from "@/lib/automations/graph/schema";
import { registry } from "@/lib/automations/nodes/registry";
import { toFlow } from "./flow";
import { autoLayout } from "./layout";

/**
 * The graph with a position for every node: those without one (a graph written through the API,
 * a built-in's definition) placed by `autoLayout` the way `toFlow` places them. Pages call it on
 * the server so the browser draws the flow without loading dagre.
 */
export function withPositions(graph: Graph): Graph {
  if (graph.nodes.every((node) => node.position)) return graph;
  const placed = new Map(toFlow(graph, registry, autoLayout).nodes.map((node) => [node.id, node.position]));
  return {
    ...graph,
    nodes: graph.nodes.map((node) => (node.position ? node : { ...node, position: placed.get(node.id) })),
  };
}
