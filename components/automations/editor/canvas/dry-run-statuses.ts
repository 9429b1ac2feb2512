import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { StepStatusTone } from "./step-nodes";

const OUTCOMES: Record<DryRunResult["steps"][number]["outcome"], { label: string; tone: StepStatusTone }> = {
  started: { label: "starts", tone: "info" },
  true: { label: "true", tone: "success" },
  false: { label: "false", tone: "warning" },
  branch: { label: "branch taken", tone: "success" },
  would_run: { label: "would run", tone: "success" },
  would_wait: { label: "would wait", tone: "neutral" },
  would_skip: { label: "would skip", tone: "warning" },
  error: { label: "error", tone: "danger" },
};

/** A dry run's outcome per node, for the canvas: the path lights up, the rest dims. */
export function dryRunStatuses(result: DryRunResult): Map<string, { label: string; tone: StepStatusTone }> {
  const statuses = new Map<string, { label: string; tone: StepStatusTone }>();
  for (const step of result.steps) statuses.set(step.nodeId, OUTCOMES[step.outcome]);
  return statuses;
}
