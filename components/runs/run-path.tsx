"use client";

import { useMemo } from "react";
import { ReadOnlyCanvas } from "@/components/automations/editor/canvas/read-only-canvas";
import type { StepStatusTone } from "@/components/automations/editor/canvas/step-nodes";
import type { Graph } from "@/lib/automations/graph/schema";
import { STEP_STATUS, StepStatusBadge } from "./run-status";
import { flowDomain, summariseNode } from "@/lib/automations/nodes/registry";

export interface RunPathProps {
  /** The graph of the version the run follows (null when that snapshot is gone). */
  graph: Graph | null;
  /** Each node's latest status in this run (`success`, `failed`, `skipped`, `waiting`); absent = not reached. */
  nodeStatuses: Record<string, string>;
  /** The steps in the order they ran, keyed by node id and occurrence. */
  steps: Array<{ key: string; nodeId: string; label: string; status: string; leg: number }>;
}

/**
 * The run's version drawn read-only with the path taken (each reached node with its status, the
 * connections between reached nodes in green, the rest dimmed), then the same path as a list.
 */
export function RunPath({ graph, nodeStatuses, steps }: RunPathProps) {
  const { statusByNode, pathEdgeIds } = useMemo(() => {
    const statuses = new Map<string, { label: string; tone: StepStatusTone }>();
    for (const node of graph?.nodes ?? []) {
      const status = nodeStatuses[node.id];
      // The trigger has no step: the run itself is the trigger firing.
      if (node.type.startsWith("auto.trigger.")) statuses.set(node.id, { label: "fired", tone: "info" });
      else if (status)
        statuses.set(node.id, {
          label: STEP_STATUS[status]?.label ?? status,
          tone: STEP_STATUS[status]?.tone ?? "neutral",
        });
    }
    const edges = new Set(
      (graph?.edges ?? []).filter((e) => statuses.has(e.source) && statuses.has(e.target)).map((e) => e.id),
    );
    return { statusByNode: statuses, pathEdgeIds: edges };
  }, [graph, nodeStatuses]);
  // Triggers have no step of their own (the run itself is the trigger firing).
  const notReached = (graph?.nodes ?? []).filter(
    (node) => !(node.id in nodeStatuses) && !node.type.startsWith("auto.trigger."),
  );
  return (
    <div data-testid="run-path">
      {graph && (
        <ReadOnlyCanvas
          graph={graph}
          statusByNode={statusByNode}
          pathEdgeIds={pathEdgeIds}
          label="The flow, with the path this run took"
          className="mb-4 h-80 rounded-lg border border-zinc-200"
        />
      )}
      {steps.length === 0 ? (
        <p className="text-sm text-zinc-600">No step has run yet.</p>
      ) : (
        <ol className="space-y-2" aria-label="Path taken">
          {steps.map((step, i) => (
            <li key={step.key} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="w-6 text-right text-xs text-zinc-500 tabular-nums">{i + 1}.</span>
              <span className="font-medium text-zinc-900" title={`Step id: ${step.nodeId}`}>
                {step.label}
              </span>
              <StepStatusBadge status={step.status} />
              {step.leg > 1 && <span className="text-xs text-zinc-500">after a wait</span>}
            </li>
          ))}
        </ol>
      )}
      {notReached.length > 0 && (
        <p className="mt-3 text-xs text-zinc-500">
          Not reached:{" "}
          {notReached.map((node) => summariseNode(node, { domain: flowDomain(graph) })).join(", ")}.
        </p>
      )}
    </div>
  );
}
