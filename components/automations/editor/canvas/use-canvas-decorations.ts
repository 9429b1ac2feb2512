"use client";

import { useMemo } from "react";
import { highlightEdges, issueEdgeIds, issuesByNode } from "@/lib/automations/editor/decorations";
import { toFlow, type StepEdge, type StepNode } from "@/lib/automations/editor/flow";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph } from "@/lib/automations/graph/schema";
import type { ReadyIssue } from "@/lib/automations/review/validate";
import type { NodeLookup } from "@/lib/automations/nodes/catalog";
import { dryRunStatuses } from "./dry-run-statuses";
import { exitKey, type CanvasDecorations } from "./step-nodes";

interface CanvasInput {
  nodes: StepNode[];
  edges: StepEdge[];
  catalog: NodeLookup;
  issues: ReadyIssue[];
  dryRun: DryRunResult | null;
  /** An old version shown instead of the draft: no issues, no path. */
  viewing: { graph: Graph } | null;
  readOnly: boolean;
  onAddAfter(nodeId: string, handle: string): void;
}

/**
 * What the canvas shows: the draft, or the old version being viewed, with the decorations on
 * top — each step's issues, a dry run's path (its steps' outcomes, its connections green) and
 * broken connections in red.
 */
export function useCanvasDecorations({
  nodes,
  edges,
  catalog,
  issues,
  dryRun,
  viewing,
  readOnly,
  onAddAfter,
}: CanvasInput) {
  // Keyed by a string so a selection (new edge objects, same lines) does not redraw every card.
  const exitsKey = [...new Set(edges.map((e) => exitKey(e.source, e.sourceHandle ?? "out")))]
    .sort()
    .join("\n");
  const connectedExits = useMemo(() => new Set(exitsKey.split("\n")), [exitsKey]);
  const decorations = useMemo<CanvasDecorations>(
    () => ({
      issuesByNode: viewing ? new Map() : issuesByNode(issues),
      statusByNode: dryRun && !viewing ? dryRunStatuses(dryRun) : null,
      readOnly,
      connectedExits,
      onAddAfter,
    }),
    [issues, dryRun, viewing, readOnly, connectedExits, onAddAfter],
  );

  const versionFlow = useMemo(() => (viewing ? toFlow(viewing.graph, catalog) : null), [viewing, catalog]);
  const pathEdges = useMemo(() => new Set(dryRun?.path.edgeIds ?? []), [dryRun]);
  const brokenEdges = useMemo(() => issueEdgeIds(issues), [issues]);
  return {
    decorations,
    shownNodes: versionFlow ? versionFlow.nodes : nodes,
    shownEdges: versionFlow ? versionFlow.edges : highlightEdges(edges, pathEdges, brokenEdges),
  };
}
