"use client";

import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from "@xyflow/react";
import type { StepEdge, StepNode } from "@/lib/automations/editor/flow";
import {
  DecorationsContext,
  STEP_NODE_TYPES,
  StepTextsContext,
  type CanvasDecorations,
  type StepTexts,
} from "./step-nodes";

export interface EditorCanvasProps {
  nodes: StepNode[];
  edges: StepEdge[];
  stepTexts: StepTexts;
  decorations: CanvasDecorations;
  readOnly: boolean;
  /** A phone: no minimap. */
  narrow: boolean;
  /** Nothing on the canvas yet: say to start with a trigger. */
  empty: boolean;
  /** A short message over the canvas ("Copied 2 steps."), or null. */
  flash: string | null;
  onNodesChange(changes: NodeChange<StepNode>[]): void;
  onEdgesChange(changes: EdgeChange<StepEdge>[]): void;
  onConnect(connection: Connection): void;
  /** A drag ended: the new positions go in the history. */
  onNodeDragStop(): void;
}

/** The editor's canvas: React Flow with the step cards, their decorations, and what it says when empty. */
export function EditorCanvas({
  nodes,
  edges,
  stepTexts,
  decorations,
  readOnly,
  narrow,
  empty,
  flash,
  onNodesChange,
  onEdgesChange,
  onConnect,
  onNodeDragStop,
}: EditorCanvasProps) {
  return (
    <div className="relative h-[65dvh] min-h-80 md:h-auto md:min-h-0" aria-label="Flow canvas" role="region">
      <StepTextsContext value={stepTexts}>
        <DecorationsContext value={decorations}>
          <ReactFlow<StepNode, StepEdge>
            nodes={nodes}
            edges={edges}
            nodeTypes={STEP_NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onNodeDragStop={onNodeDragStop}
            nodesDraggable={!readOnly}
            nodesConnectable={!readOnly}
            edgesReconnectable={false}
            deleteKeyCode={null}
            snapToGrid
            snapGrid={[20, 20]}
            fitView
            fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
            defaultEdgeOptions={{ type: "smoothstep" }}
            minZoom={0.2}
            maxZoom={1.5}
          >
            <Background gap={20} size={1} />
            <Controls showInteractive={false} />
            {!narrow && <MiniMap pannable zoomable ariaLabel="Mini map of the flow" />}
          </ReactFlow>
        </DecorationsContext>
      </StepTextsContext>
      {empty && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-8">
          <div className="max-w-sm rounded-xl border border-dashed border-zinc-300 bg-white/90 p-6 text-center text-sm text-zinc-600">
            <p className="font-semibold text-zinc-900">Start with a trigger</p>
            <p className="mt-1">
              Pick what starts this flow from the list on the left — an order being paid, a cart being
              abandoned, a schedule. Then add waits, conditions and actions after it.
            </p>
          </div>
        </div>
      )}
      {flash && (
        <p
          role="status"
          className="absolute top-3 left-1/2 -translate-x-1/2 rounded-md bg-zinc-900 px-3 py-1.5 text-sm text-white shadow"
        >
          {flash}
        </p>
      )}
    </div>
  );
}
