import type { Graph } from "@/lib/automations/graph/schema";
import { StepStatusBadge } from "./run-status";
import { nodeLabel } from "./node-label";

export interface RunPathProps {
  /** The graph of the version the run started on (null when that snapshot is gone). */
  graph: Graph | null;
  /** Each node's latest status in this run (`success`, `failed`, `skipped`, `waiting`); absent = not reached. */
  nodeStatuses: Record<string, string>;
  /** The steps in the order they ran, keyed by node id and occurrence. */
  steps: Array<{ key: string; nodeId: string; nodeType: string; status: string; leg: number }>;
}

/**
 * CANVAS SLOT — the run's version drawn read-only with the path taken and each node's status.
 * Until the flow editor's React Flow canvas is merged, this renders the path as an ordered list;
 * the canvas should replace the body of this component and keep its props (`graph` for the
 * drawing, `nodeStatuses` to colour each node, `steps` for the order the path was taken).
 */
export function RunPath({ graph, nodeStatuses, steps }: RunPathProps) {
  // Triggers have no step of their own (the run itself is the trigger firing).
  const notReached = (graph?.nodes ?? []).filter(
    (node) => !(node.id in nodeStatuses) && !node.type.startsWith("auto.trigger."),
  );
  return (
    <div data-testid="run-path">
      {steps.length === 0 ? (
        <p className="text-sm text-zinc-600">No step has run yet.</p>
      ) : (
        <ol className="space-y-2" aria-label="Path taken">
          {steps.map((step, i) => (
            <li key={step.key} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="w-6 text-right text-xs text-zinc-500 tabular-nums">{i + 1}.</span>
              <span className="font-medium text-zinc-900">{nodeLabel(step.nodeType)}</span>
              <span className="font-mono text-xs text-zinc-500">{step.nodeId}</span>
              <StepStatusBadge status={step.status} />
              <span className="text-xs text-zinc-500">leg {step.leg}</span>
            </li>
          ))}
        </ol>
      )}
      {notReached.length > 0 && (
        <p className="mt-3 text-xs text-zinc-500">
          Not reached: {notReached.map((node) => `${nodeLabel(node.type)} (${node.id})`).join(", ")}.
        </p>
      )}
    </div>
  );
}
