"use client";

import { useMemo } from "react";
import { ReadOnlyCanvas } from "@/components/automations/editor/canvas/read-only-canvas";
import type { StepStatusTone } from "@/components/automations/editor/canvas/step-nodes";
import type { Graph } from "@/lib/automations/graph/schema";

/**
 * The flow drawn read-only (the run page's canvas) with, on each node, how many runs reached it in
 * the window instead of a status (re-runs counted apart: "12 runs + 2 re-runs"); nodes no run reached are dimmed, connections between reached
 * nodes drawn in green. The page lists the same counts as text beside it.
 */
export function FunnelCanvas({
  graph,
  counts,
  reruns = {},
  days,
}: {
  graph: Graph;
  /** First runs that reached each node. */
  counts: Record<string, number>;
  /** Re-runs that reached each node. Default none. */
  reruns?: Record<string, number>;
  days: number;
}) {
  const { byNode, edgeIds } = useMemo(() => {
    const map = new Map<string, { label: string; tone: StepStatusTone }>();
    for (const node of graph.nodes) {
      const n = counts[node.id] ?? 0;
      const again = reruns[node.id] ?? 0;
      if (n > 0 || again > 0) map.set(node.id, { label: reachedLabel(n, again), tone: "info" });
    }
    const edges = new Set(graph.edges.filter((e) => map.has(e.source) && map.has(e.target)).map((e) => e.id));
    return { byNode: map, edgeIds: edges };
  }, [graph, counts, reruns]);
  return (
    <div data-testid="funnel-canvas">
      <ReadOnlyCanvas
        graph={graph}
        statusByNode={byNode}
        pathEdgeIds={edgeIds}
        label={`The flow, with how many runs reached each step in the last ${days} days`}
        className="h-[28rem] rounded-lg border border-zinc-200"
      />
    </div>
  );
}

/** "12 runs", "1 run + 2 re-runs", "1 re-run": first runs and re-runs, apart. */
export function reachedLabel(runs: number, reruns: number): string {
  const count = (n: number, one: string, many: string) =>
    n === 1 ? `1 ${one}` : `${n.toLocaleString("en-US")} ${many}`;
  if (reruns === 0) return count(runs, "run", "runs");
  if (runs === 0) return count(reruns, "re-run", "re-runs");
  return `${count(runs, "run", "runs")} + ${count(reruns, "re-run", "re-runs")}`;
}
