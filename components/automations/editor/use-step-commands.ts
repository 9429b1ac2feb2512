"use client";

import { useReactFlow, type Connection } from "@xyflow/react";
import { useCallback, useRef } from "react";
import {
  connect as connectSteps,
  copySteps,
  deleteSelection,
  disconnect as disconnectSteps,
  pasteSteps,
  tidy,
} from "@/lib/automations/editor/commands";
import type { StepEdge, StepNode } from "@/lib/automations/editor/flow";
import { FIT_VIEW_PADDING } from "@/lib/automations/editor/node-size";
import type { Graph } from "@/lib/automations/graph/schema";

interface StepCommandsOptions {
  graph: Graph;
  nodes: StepNode[];
  edges: StepEdge[];
  selectedIds: readonly string[];
  selectedEdgeIds: readonly string[];
  readOnly: boolean;
  commit(next: Graph, selectIds?: readonly string[]): void;
  /** Says what happened for a moment on the canvas ("Copied 2 steps."). */
  onFlash(text: string): void;
  /** Steps were deleted: a dry run's path no longer fits the flow. */
  onDeleted(): void;
}

/**
 * The editor's commands on the selection (`lib/automations/editor/commands.ts`) as callbacks:
 * connect, disconnect, delete, copy, paste and tidy up. Each is a no-op on a read-only canvas,
 * except copying.
 */
export function useStepCommands({
  graph,
  nodes,
  edges,
  selectedIds,
  selectedEdgeIds,
  readOnly,
  commit,
  onFlash,
  onDeleted,
}: StepCommandsOptions) {
  const flow = useReactFlow<StepNode, StepEdge>();
  const clipboard = useRef<Graph | null>(null);

  const connect = useCallback(
    (source: string, sourceHandle: string, target: string) => {
      if (readOnly) return;
      const next = connectSteps(graph, source, sourceHandle, target);
      if (next) commit(next, selectedIds);
    },
    [readOnly, graph, commit, selectedIds],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      if (!connection.source || !connection.target) return;
      connect(connection.source, connection.sourceHandle ?? "out", connection.target);
    },
    [connect],
  );

  /** Removes a connection from the step panel's Next steps, keeping `stepId` selected. */
  const disconnect = useCallback(
    (edgeId: string, stepId: string) => commit(disconnectSteps(graph, edgeId), [stepId]),
    [graph, commit],
  );

  const deleteSelected = useCallback(() => {
    if (readOnly) return;
    const next = deleteSelection(graph, selectedIds, selectedEdgeIds);
    if (!next) return;
    commit(next);
    onDeleted();
  }, [readOnly, graph, selectedIds, selectedEdgeIds, commit, onDeleted]);

  const copy = useCallback(() => {
    const copied = copySteps(graph, selectedIds);
    if (!copied) return;
    clipboard.current = copied;
    const count = copied.nodes.length;
    onFlash(count === 1 ? "Copied 1 step." : `Copied ${count} steps.`);
  }, [graph, selectedIds, onFlash]);

  const paste = useCallback(() => {
    const copied = clipboard.current;
    if (!copied || readOnly) return;
    const { graph: next, pasted, ids } = pasteSteps(graph, copied);
    commit(next, ids);
    clipboard.current = pasted;
  }, [readOnly, graph, commit]);

  /** Lays the flow out afresh with dagre, loaded now. */
  const tidyUp = useCallback(async () => {
    const { autoLayout } = await import("@/lib/automations/editor/layout");
    commit(tidy(nodes, edges, autoLayout), selectedIds);
    requestAnimationFrame(() => void flow.fitView({ padding: FIT_VIEW_PADDING, maxZoom: 1, duration: 300 }));
  }, [nodes, edges, commit, selectedIds, flow]);

  return { connect, onConnect, disconnect, deleteSelected, copy, paste, tidyUp };
}
