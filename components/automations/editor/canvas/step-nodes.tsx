"use client";

import { Handle, Position, type NodeProps, type NodeTypes } from "@xyflow/react";
import { createContext, memo, useContext, type ReactNode } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { StepNode } from "@/lib/automations/editor/flow";
import { exitLabel, outHandles, type NodeInfo } from "@/lib/automations/nodes/catalog";
import type { NodeCategory } from "@/lib/automations/nodes/types";
import { CATEGORY_STYLES, CategoryIcon } from "./category-style";
import { StepPerformanceBadge } from "@/components/performance/canvas-overlay"; // performance overlay

/** A step status on the canvas is coloured like the app's badges. */
export type StepStatusTone = BadgeTone;

/** What the canvas shows on top of the graph: ready issues, and a dry run's or a run's path. */
export interface CanvasDecorations {
  issuesByNode: ReadonlyMap<string, string[]>;
  /** Set while a path is shown: nodes on it get their status, the others are dimmed. */
  statusByNode: ReadonlyMap<string, { label: string; tone: StepStatusTone }> | null;
  readOnly: boolean;
  /** The exits with a line out (`exitKey`): their "+" inserts a step on it. */
  connectedExits: ReadonlySet<string>;
  onAddAfter(nodeId: string, handle: string): void;
}

/** How `connectedExits` names an exit. */
export function exitKey(nodeId: string, handle: string): string {
  return `${nodeId}\u0000${handle}`;
}

export const DecorationsContext = createContext<CanvasDecorations>({
  issuesByNode: new Map(),
  statusByNode: null,
  readOnly: true,
  connectedExits: new Set(),
  onAddAfter: () => {},
});

/**
 * What a card says: its type's catalog entry (label, handles) and its sentence ("Wait 2 days").
 * The read-only canvas reads both from the registry; the editor from the page's data until its
 * first edit loads the registry (`state/node-logic-loader.ts`).
 */
export interface StepTexts {
  info(type: string): NodeInfo | undefined;
  summary(node: { id: string; type: string; params: Record<string, unknown> }): string;
}

export const StepTextsContext = createContext<StepTexts>({
  info: () => undefined,
  summary: (node) => node.type,
});

/** Where each exit sits along the bottom edge: one centred, two at a third and two thirds… */
function exitOffset(index: number, count: number): string {
  return `${((index + 1) / (count + 1)) * 100}%`;
}

function StepCard({ id, data, selected, category }: NodeProps<StepNode> & { category: NodeCategory | null }) {
  const decorations = useContext(DecorationsContext);
  const texts = useContext(StepTextsContext);
  const definition = texts.info(data.type);
  const style = category ? CATEGORY_STYLES[category] : null;
  const issues = decorations.issuesByNode.get(id) ?? [];
  const status = decorations.statusByNode?.get(id);
  const dimmed = decorations.statusByNode !== null && !status;
  const exits = outHandles(definition, data.params);
  const labelOf = (handle: string) => exitLabel(definition, data.params, handle);
  const summary = texts.summary({ id, type: data.type, params: data.params });

  return (
    <div
      className={cn(
        "w-[260px] rounded-xl border-2 bg-white shadow-sm transition-opacity",
        style?.chrome ?? "border-red-300",
        selected && "ring-2 ring-indigo-500 ring-offset-2",
        issues.length > 0 && "border-red-400",
        // Not reached: drawn dashed and grey rather than faded, so its words keep their contrast.
        dimmed && "border-dashed shadow-none grayscale",
      )}
    >
      {definition?.handles.in && (
        <Handle
          type="target"
          position={Position.Top}
          id="in"
          className="!size-3 !border-2 !border-white !bg-zinc-400"
        />
      )}
      <div
        className={cn(
          "flex items-center gap-2 rounded-t-[10px] px-3 py-1.5 text-xs font-medium",
          style?.band ?? "bg-red-50 text-red-800",
        )}
      >
        {category && <CategoryIcon category={category} className={cn("size-4 shrink-0", style?.icon)} />}
        <span className="truncate" title={definition?.label}>
          {definition ? definition.label : "Unknown step"}
        </span>
        {status && (
          <Badge tone={status.tone} className="ml-auto">
            {status.label}
          </Badge>
        )}
      </div>
      {/* A long sentence wraps, two lines at most (the card keeps its size), and says the rest when
          pointed at. The padding is outside the clamped box: inside, a third line would show through. */}
      <div className="px-3 py-2">
        <p className="line-clamp-2 text-sm leading-5 break-words text-zinc-900" title={summary}>
          {summary}
        </p>
      </div>
      {/* performance overlay */}
      <StepPerformanceBadge nodeId={id} />
      {issues.length > 0 && (
        <p className="flex items-center gap-1 border-t border-red-100 px-3 py-1.5 text-xs font-medium text-red-700">
          <span aria-hidden="true">⚠</span>
          {issues.length === 1 ? "1 issue" : `${issues.length} issues`}
          <span className="sr-only">: {issues.join(" ")}</span>
        </p>
      )}
      {exits.map((handle, index) => (
        <div key={handle}>
          <Handle
            type="source"
            position={Position.Bottom}
            id={handle}
            style={{ left: exitOffset(index, exits.length) }}
            className="!size-3 !border-2 !border-white !bg-zinc-500"
          />
          {exits.length > 1 && (
            <span
              className="pointer-events-none absolute -bottom-5 -translate-x-1/2 text-[11px] font-medium text-zinc-500"
              style={{ left: `calc(${exitOffset(index, exits.length)} + 18px)` }}
            >
              {labelOf(handle)}
            </span>
          )}
          {!decorations.readOnly && (
            <button
              type="button"
              aria-label={`${decorations.connectedExits.has(exitKey(id, handle)) ? "Insert a step" : "Add a step"} after '${summary}'${exits.length > 1 ? ` (${labelOf(handle)})` : ""}`}
              title={
                decorations.connectedExits.has(exitKey(id, handle))
                  ? "Insert a step on this line"
                  : "Add a step here"
              }
              onClick={(event) => {
                event.stopPropagation();
                decorations.onAddAfter(id, handle);
              }}
              className="nodrag nopan absolute -bottom-9 flex size-5 -translate-x-1/2 items-center justify-center rounded-full border border-zinc-300 bg-white text-xs leading-none text-zinc-600 shadow-sm hover:border-indigo-500 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
              style={{ left: exitOffset(index, exits.length) }}
            >
              +
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

type StepNodeComponent = (props: NodeProps<StepNode>) => ReactNode;

/** The card of one category, memoised: React Flow re-renders it only when its own props change. */
function cardOf(category: NodeCategory | null): StepNodeComponent {
  return memo(function StepNodeCard(props: NodeProps<StepNode>) {
    return <StepCard {...props} category={category} />;
  });
}

/** React Flow node components, one per category (the node's `type` in React Flow). */
export const STEP_NODE_TYPES: NodeTypes = {
  trigger: cardOf("trigger"),
  condition: cardOf("condition"),
  action: cardOf("action"),
  wait: cardOf("wait"),
  unknown: cardOf(null),
};
