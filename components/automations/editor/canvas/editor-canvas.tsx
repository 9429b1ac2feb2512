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
import { FIT_VIEW_PADDING, MINIMAP_SIZE } from "@/lib/automations/editor/node-size";
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

/** A fitted view: the whole flow, no larger than life, clear of the minimap and the zoom buttons. */
const FIT_VIEW = { padding: FIT_VIEW_PADDING, maxZoom: 1 };

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
            fitViewOptions={FIT_VIEW}
            defaultEdgeOptions={{ type: "smoothstep" }}
            minZoom={0.2}
            maxZoom={1.5}
          >
            <Background gap={20} size={1} />
            <Controls showInteractive={false} fitViewOptions={FIT_VIEW} />
            {/* Only where the canvas has room for it: at 1280 px the canvas column is ~620 px
                wide and a minimap there sits on the steps. */}
            {!narrow && (
              <MiniMap
                pannable
                zoomable
                ariaLabel="Mini map of the flow"
                style={MINIMAP_SIZE}
                className="max-[1439.98px]:hidden"
              />
            )}
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
