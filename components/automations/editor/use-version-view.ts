"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useState } from "react";
import type { StepEdge, StepNode } from "@/lib/automations/editor/flow";
import type { Graph } from "@/lib/automations/graph/schema";

export interface ViewedVersion {
  version: number;
  graph: Graph;
}

/**
 * An old published version shown read-only on the canvas instead of the draft, or null. One
 * stored without positions is placed first (with dagre, loaded now); the view fits it.
 */
export function useVersionView(onShow: () => void) {
  const flow = useReactFlow<StepNode, StepEdge>();
  const [viewing, setViewing] = useState<ViewedVersion | null>(null);
  const showVersion = useCallback(
    async (version: ViewedVersion | null) => {
      onShow();
      if (version && !version.graph.nodes.every((n) => n.position)) {
        const { withPositions } = await import("@/lib/automations/editor/place");
        version = { version: version.version, graph: withPositions(version.graph) };
      }
      setViewing(version);
      requestAnimationFrame(() => void flow.fitView({ padding: 0.2, duration: 300 }));
    },
    [flow, onShow],
  );
  return { viewing, showVersion, backToDraft: () => setViewing(null) };
}
