import { reachableFrom } from "./reachability";
import type { Graph, GraphEdge, GraphNode } from "./schema";

/**
 * "Send everyone down the winner": the graph with the split `splitId` replaced by its branch
 * `branchId`. Pure.
 *
 * ```
 *   trigger ──▶ split ──a──▶ email A ──▶ tag          trigger ──▶ email B ──▶ tag
 *                    └─b──▶ email B ──▶ tag    ⇒
 * ```
 *
 * Whatever led into the split leads straight to the winner's first steps (each way in to each
 * first step, on the same exit it left from); the split and its connections go, and so does every
 * step only the other branches reached — a step still reached some other way (a shared `tag`
 * after both branches, a step under another trigger) stays. Steps that were not connected to a
 * trigger before are left as they were. Null when there is no such split or branch. The caller
 * says which nodes are triggers (the registry is a floor above this folder) and that `splitId` is
 * a split.
 */
export function keepBranch(
  graph: Graph,
  splitId: string,
  branchId: string,
  isTrigger: (node: GraphNode) => boolean,
): Graph | null {
  const split = graph.nodes.find((n) => n.id === splitId);
  if (!split) return null;
  const branches = (split.params as { branches?: unknown }).branches;
  if (!Array.isArray(branches) || !branches.some((b) => (b as { id?: unknown })?.id === branchId))
    return null;

  const into = graph.edges.filter((e) => e.target === splitId);
  const winners = graph.edges.filter((e) => e.source === splitId && e.sourceHandle === branchId);
  const ids = new Set(graph.edges.map((e) => e.id));
  const bridges: GraphEdge[] = [];
  for (const from of into)
    for (const to of winners) {
      if (to.target === splitId || from.source === splitId) continue;
      if (
        bridges.some(
          (b) => b.source === from.source && b.sourceHandle === from.sourceHandle && b.target === to.target,
        )
      )
        continue;
      let id = `${from.source}-${from.sourceHandle}-${to.target}`
        .replace(/[^A-Za-z0-9_-]/g, "_")
        .slice(0, 90);
      for (let n = 2; ids.has(id); n++) id = `${id.slice(0, 90)}-${n}`;
      ids.add(id);
      bridges.push({ id, source: from.source, sourceHandle: from.sourceHandle, target: to.target });
    }
  const rewired: Graph = {
    nodes: graph.nodes.filter((n) => n.id !== splitId),
    edges: [...graph.edges.filter((e) => e.source !== splitId && e.target !== splitId), ...bridges],
  };

  // What the other branches alone reached is now cut off from every trigger: it goes.
  const reachedBy = (g: Graph) => {
    const reached = new Set<string>();
    for (const node of g.nodes)
      if (isTrigger(node)) for (const id of reachableFrom(g, node.id)) reached.add(id);
    return reached;
  };
  const before = reachedBy(graph);
  const after = reachedBy(rewired);
  const gone = new Set(rewired.nodes.filter((n) => before.has(n.id) && !after.has(n.id)).map((n) => n.id));
  return {
    nodes: rewired.nodes.filter((n) => !gone.has(n.id)),
    edges: rewired.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)),
  };
}
