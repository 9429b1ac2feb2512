import type { Graph } from "./schema";

/**
 * Reachability over a graph's edges, whatever their handle. Pure. Edges to or from missing nodes
 * are followed like any other (validation reports them); a cycle is walked once.
 */

type Edges = Pick<Graph, "edges">;

function walk(start: string, next: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...(next.get(start) ?? [])];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const following of next.get(id) ?? []) if (!seen.has(following)) stack.push(following);
  }
  return seen;
}

function index(graph: Edges, direction: "down" | "up"): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const [from, to] = direction === "down" ? [edge.source, edge.target] : [edge.target, edge.source];
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  }
  return next;
}

/** Every node a walk from `startId` can reach, `startId` included. */
export function reachableFrom(graph: Edges, startId: string): Set<string> {
  const reached = walk(startId, index(graph, "down"));
  reached.add(startId);
  return reached;
}

/**
 * Every node with a path to `nodeId`: the steps that can run before it. `nodeId` itself is
 * included only when it is on a cycle.
 */
export function upstreamOf(graph: Edges, nodeId: string): Set<string> {
  return walk(nodeId, index(graph, "up"));
}
