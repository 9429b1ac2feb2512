"use client";

import { Background, Controls, ReactFlow, ReactFlowProvider } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import { toFlow } from "@/lib/automations/editor/flow";
import { autoLayout } from "@/lib/automations/editor/layout";
import type { Graph } from "@/lib/automations/graph/schema";
import { flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";
import {
  DecorationsContext,
  STEP_NODE_TYPES,
  StepTextsContext,
  type CanvasDecorations,
  type StepStatusTone,
  type StepTexts,
} from "./step-nodes";

export interface ReadOnlyCanvasProps {
  graph: Graph;
  /** Each step's status on the path taken; steps without one are dimmed. Null shows no path. */
  statusByNode: ReadonlyMap<string, { label: string; tone: StepStatusTone }> | null;
  /** Connections on the path taken, drawn in green. */
  pathEdgeIds?: ReadonlySet<string>;
  label: string;
  className?: string;
}

/** A flow drawn like the editor's canvas, but nothing can change: a run's version and its path. */
export function ReadOnlyCanvas({ graph, statusByNode, pathEdgeIds, label, className }: ReadOnlyCanvasProps) {
  // A run's version may predate positions (written through the API): place those steps here.
  const flow = useMemo(() => toFlow(graph, registry, autoLayout), [graph]);
  // Tokens in the steps' sentences are described with the flow's record: "the order's number".
  const domain = flowDomain(graph);
  const texts = useMemo<StepTexts>(
    () => ({ info: (type) => registry.get(type), summary: (node) => summariseNode(node, { domain }) }),
    [domain],
  );
  const edges = flow.edges.map((edge) =>
    pathEdgeIds?.has(edge.id) ? { ...edge, style: { stroke: "#059669", strokeWidth: 2 } } : edge,
  );
  const decorations = useMemo<CanvasDecorations>(
    () => ({
      issuesByNode: new Map(),
      statusByNode,
      readOnly: true,
      connectedExits: new Set<string>(),
      onAddAfter: () => {},
    }),
    [statusByNode],
  );
  return (
    <div role="region" aria-label={label} className={className ?? "h-96 rounded-lg border border-zinc-200"}>
      <ReactFlowProvider>
        <StepTextsContext value={texts}>
          <DecorationsContext value={decorations}>
            <ReactFlow
              nodes={flow.nodes}
              edges={edges}
              nodeTypes={STEP_NODE_TYPES}
              nodesDraggable={false}
              nodesConnectable={false}
              elementsSelectable={false}
              deleteKeyCode={null}
              fitView
              fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
              defaultEdgeOptions={{ type: "smoothstep" }}
              minZoom={0.2}
            >
              <Background gap={20} size={1} />
              <Controls showInteractive={false} />
            </ReactFlow>
          </DecorationsContext>
        </StepTextsContext>
      </ReactFlowProvider>
    </div>
  );
}
