"use client";

import { useCallback, useMemo } from "react";
import type { EditorFirstPaint } from "@/lib/automations/editor/first-paint";
import type { Graph } from "@/lib/automations/graph/schema";
import type { NodeLookup } from "@/lib/automations/nodes/catalog";
import type { StepTexts } from "../canvas/step-nodes";
import type { NodeLogic } from "./node-logic-loader";

/**
 * The draft's ready issues and its steps' sentences: the server's (`firstPaint`) until the
 * registry loads — nothing has changed a step's params before then (a move, a deletion or a
 * connection waits on the pointer that loads it) — then worked out in the browser as you type.
 */
export function useStepTexts(
  graph: Graph,
  logic: NodeLogic | null,
  firstPaint: EditorFirstPaint,
  catalog: NodeLookup,
) {
  const issues = useMemo(
    () => (logic ? logic.validate(graph, undefined, firstPaint.facts) : firstPaint.issues),
    [logic, graph, firstPaint.issues, firstPaint.facts],
  );
  // A string, so the sentences below change only when the flow's kind of record does.
  const domain = useMemo(() => logic?.flowDomain(graph) ?? null, [logic, graph]);
  const summaryOf = useCallback(
    (node: { id: string; type: string; params: Record<string, unknown> }) =>
      logic
        ? logic.summariseNode(node, { domain })
        : (firstPaint.summaries[node.id] ?? catalog.get(node.type)?.label ?? node.type),
    [logic, domain, firstPaint.summaries, catalog],
  );
  const stepTexts = useMemo<StepTexts>(
    () => ({ info: (type) => catalog.get(type), summary: summaryOf }),
    [catalog, summaryOf],
  );
  /** A step's sentence by its id (the id itself for a step that is gone). */
  const labelOf = useCallback(
    (id: string) => {
      const node = graph.nodes.find((n) => n.id === id);
      return node ? summaryOf(node) : id;
    },
    [graph, summaryOf],
  );
  return { issues, stepTexts, labelOf };
}
