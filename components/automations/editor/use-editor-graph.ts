"use client";

import {
  applyEdgeChanges,
  applyNodeChanges,
  useReactFlow,
  type EdgeChange,
  type NodeChange,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { fromFlow, toFlow, type StepEdge, type StepNode } from "@/lib/automations/editor/flow";
import { paramsKey } from "@/lib/automations/editor/history";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/automations/editor/node-size";
import type { Graph } from "@/lib/automations/graph/schema";
import type { NodeLookup } from "@/lib/automations/nodes/catalog";
import { useHistory } from "./use-history";

/**
 * The editor's graph: React Flow's nodes and edges as state, the graph they make, and its undo
 * history. `commit` puts a command's graph on the canvas and records it; React Flow's own drags
 * and selections land in state directly, and a drag is recorded once it stops; typing in a step's
 * form records one undo step once typing pauses, not one per key.
 */
export function useEditorGraph(draft: Graph, catalog: NodeLookup, readOnly: boolean) {
  const flow = useReactFlow<StepNode, StepEdge>();
  // The draft as it was when this version opened; later refreshes of the props do not reset edits.
  const [initial] = useState(() => toFlow(draft, catalog));
  const [nodes, setNodes] = useState<StepNode[]>(initial.nodes);
  const [edges, setEdges] = useState<StepEdge[]>(initial.edges);
  const graph = useMemo(() => fromFlow(nodes, edges), [nodes, edges]);
  const history = useHistory<Graph>(graph);

  const selectedIds = nodes.filter((n) => n.selected).map((n) => n.id);
  const selectedEdgeIds = edges.filter((e) => e.selected).map((e) => e.id);

  /** Replaces the canvas with `next` and remembers it for undo. */
  const commit = useCallback(
    (next: Graph, selectIds: readonly string[] = []) => {
      const flowState = toFlow(next, catalog);
      setNodes(flowState.nodes.map((n) => ({ ...n, selected: selectIds.includes(n.id) })));
      setEdges(flowState.edges);
      history.record(next);
    },
    [history, catalog],
  );

  const restore = useCallback(
    (snapshot: Graph | undefined) => {
      if (!snapshot) return;
      const flowState = toFlow(snapshot, catalog);
      setNodes(flowState.nodes);
      setEdges(flowState.edges);
    },
    [catalog],
  );
  const undo = useCallback(() => restore(history.undo()), [history, restore]);
  const redo = useCallback(() => restore(history.redo()), [history, restore]);

  const onNodesChange = useCallback(
    (changes: NodeChange<StepNode>[]) => {
      const allowed = readOnly
        ? changes.filter((c) => c.type === "select" || c.type === "dimensions")
        : changes;
      setNodes((ns) => applyNodeChanges(allowed, ns));
    },
    [readOnly],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<StepEdge>[]) => {
      const allowed = readOnly ? changes.filter((c) => c.type === "select") : changes;
      setEdges((es) => applyEdgeChanges(allowed, es));
    },
    [readOnly],
  );

  // React Flow's own deletions and drags land in state first; record them once they are done.
  const recordCurrent = useCallback(() => {
    requestAnimationFrame(() => history.record(fromFlow(flow.getNodes(), flow.getEdges())));
  }, [flow, history]);

  const updateParams = useCallback((nodeId: string, params: Record<string, unknown>) => {
    setNodes((ns) => ns.map((n) => (n.id === nodeId ? { ...n, data: { ...n.data, params } } : n)));
  }, []);

  /** Selects only this step and brings it into view. */
  const focusStep = useCallback(
    (id: string) => {
      setNodes((ns) => ns.map((n) => ({ ...n, selected: n.id === id })));
      const node = flow.getNode(id);
      if (!node) return;
      void flow.setCenter(node.position.x + NODE_WIDTH / 2, node.position.y + NODE_HEIGHT / 2, {
        zoom: Math.max(flow.getZoom(), 0.9),
        duration: 300,
      });
    },
    [flow],
  );

  // Typing in a form records one undo step once typing pauses, not one per key.
  const graphKey = paramsKey(graph);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (paramsKey(history.present()) !== graphKey) history.record(graph);
    }, 600);
    return () => clearTimeout(timer);
  }, [graphKey, graph, history]);

  return {
    nodes,
    edges,
    setNodes,
    graph,
    selectedIds,
    selectedEdgeIds,
    history,
    commit,
    undo,
    redo,
    onNodesChange,
    onEdgesChange,
    recordCurrent,
    updateParams,
    focusStep,
  };
}
