import type { ReadyIssue } from "@/lib/automations/review/validate";
import type { StepEdge } from "./flow";

/**
 * What the canvas draws on top of the graph, worked out purely: each step's ready issues, and the
 * connections to colour — a dry run's path green and animated, a broken connection red.
 */

/** Each step's issue messages, by node id (issues about the whole flow or a connection are left out). */
export function issuesByNode(issues: readonly ReadyIssue[]): Map<string, string[]> {
  const byNode = new Map<string, string[]>();
  for (const issue of issues) {
    if (!issue.nodeId) continue;
    byNode.set(issue.nodeId, [...(byNode.get(issue.nodeId) ?? []), issue.message]);
  }
  return byNode;
}

/** The ids of the connections an issue is about. */
export function issueEdgeIds(issues: readonly ReadyIssue[]): Set<string> {
  return new Set(issues.flatMap((i) => (i.edgeId ? [i.edgeId] : [])));
}

export const PATH_STROKE = "#059669";
export const BROKEN_STROKE = "#dc2626";

/** The edges with those on the path animated and green, broken ones red (broken wins); the rest as they were. */
export function highlightEdges(
  edges: readonly StepEdge[],
  onPath: ReadonlySet<string>,
  broken: ReadonlySet<string>,
): StepEdge[] {
  return edges.map((edge) => {
    const pathEdge = onPath.has(edge.id);
    const brokenEdge = broken.has(edge.id);
    return pathEdge || brokenEdge
      ? {
          ...edge,
          animated: pathEdge,
          style: { stroke: brokenEdge ? BROKEN_STROKE : PATH_STROKE, strokeWidth: 2 },
        }
      : edge;
  });
}
