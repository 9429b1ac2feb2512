"use client";

import { useReactFlow, type Connection } from "@xyflow/react";
import { useCallback, useEffect } from "react";
import { fromFlow, type StepEdge, type StepNode } from "@/lib/automations/editor/flow";
import { EditorCanvas } from "./editor-canvas";
import { useEditor, useEditorApi, useEditorView } from "../state/editor-context";
import { selectReadOnly } from "../state/store";
import { useCanvasDecorations } from "./use-canvas-decorations";

/** How long a short message stays on the canvas ("Copied 2 steps."). */
const FLASH_MS = 2500;

/**
 * The canvas's column: the draft (or the old version viewed) with its decorations, fed from the
 * store; React Flow's own changes go back to it, and a drag is recorded for undo once it stops.
 */
export function CanvasColumn() {
  const view = useEditorView();
  const api = useEditorApi();
  const flow = useReactFlow<StepNode, StepEdge>();
  const nodes = useEditor((s) => s.nodes);
  const edges = useEditor((s) => s.edges);
  const dryRun = useEditor((s) => s.dryRun);
  const viewing = useEditor((s) => s.viewing);
  const narrow = useEditor((s) => s.narrow);
  const flash = useEditor((s) => s.flash);
  const readOnly = useEditor(selectReadOnly);
  const { onNodesChange, onEdgesChange, connect, setFlash, record } = api.getState();
  const canvas = useCanvasDecorations({
    nodes,
    edges,
    catalog: view.catalog,
    issues: view.issues,
    dryRun,
    viewing,
    readOnly,
    onAddAfter: view.onAddAfter,
  });

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash, setFlash]);

  const onConnect = useCallback(
    (connection: Connection) => {
      if (!connection.source || !connection.target) return;
      connect(connection.source, connection.sourceHandle ?? "out", connection.target);
    },
    [connect],
  );
  // React Flow's own drags land in the store first; record them once they are done.
  const recordCurrent = useCallback(() => {
    requestAnimationFrame(() => record(fromFlow(flow.getNodes(), flow.getEdges())));
  }, [flow, record]);

  return (
    <EditorCanvas
      nodes={canvas.shownNodes}
      edges={canvas.shownEdges}
      stepTexts={view.stepTexts}
      decorations={canvas.decorations}
      readOnly={readOnly}
      narrow={narrow}
      empty={nodes.length === 0 && !viewing && !narrow}
      flash={flash}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      onNodeDragStop={recordCurrent}
    />
  );
}
