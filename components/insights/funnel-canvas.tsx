"use client";

import { useMemo } from "react";
import { ReadOnlyCanvas } from "@/components/automations/editor/read-only-canvas";
import type { StepStatusTone } from "@/components/automations/editor/step-nodes";
import type { Graph } from "@/lib/automations/graph/schema";

/**
 * The flow drawn read-only (the run page's canvas) with, on each node, how many runs reached it in
 * the window instead of a status; nodes no run reached are dimmed, connections between reached
 * nodes drawn in green. The page lists the same counts as text beside it.
 */
export function FunnelCanvas({
  graph,
  counts,
  days,
}: {
  graph: Graph;
  counts: Record<string, number>;
  days: number;
}) {
  const { byNode, edgeIds } = useMemo(() => {
    const map = new Map<string, { label: string; tone: StepStatusTone }>();
    for (const node of graph.nodes) {
      const n = counts[node.id] ?? 0;
      if (n > 0)
        map.set(node.id, { label: n === 1 ? "1 run" : `${n.toLocaleString("en-US")} runs`, tone: "info" });
    }
    const edges = new Set(graph.edges.filter((e) => map.has(e.source) && map.has(e.target)).map((e) => e.id));
    return { byNode: map, edgeIds: edges };
  }, [graph, counts]);
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
