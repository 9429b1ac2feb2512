import { Badge, type BadgeTone } from "@/components/ui/badge";

export const RUN_STATUS_VALUES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "partial",
  "failed",
  "cancelled",
] as const;
export type RunStatusValue = (typeof RUN_STATUS_VALUES)[number];

/**
 * Every run status with its word, tone and what it means. Waiting and cancelled are both zinc (a
 * run at rest, and one that stopped without acting); every other status has its own colour, and
 * the word always says it, so colour never carries the meaning alone.
 */
export const RUN_STATUS_INFO: Record<RunStatusValue, { label: string; tone: BadgeTone; meaning: string }> = {
  queued: { label: "Queued", tone: "accent", meaning: "Triggered and waiting for a worker to start it." },
  running: { label: "Running", tone: "info", meaning: "A worker is executing its steps right now." },
  waiting: {
    label: "Waiting",
    tone: "neutral",
    meaning: "Paused at a wait step until its time comes or someone approves; nothing is lost meanwhile.",
  },
  succeeded: { label: "Succeeded", tone: "success", meaning: "Every action did its work." },
  partial: {
    label: "Partial",
    tone: "warning",
    meaning: "Some actions failed; the run shows which and why.",
  },
  failed: { label: "Failed", tone: "danger", meaning: "No action succeeded, or the run hit an error." },
  cancelled: {
    label: "Cancelled",
    tone: "neutral",
    meaning:
      "Stopped without acting further: someone cancelled it, or the automation was paused or edited while it waited.",
  },
};

/**
 * How a waiting run reads while it waits at an approval nobody has decided: a person is needed,
 * so amber, and the word says so ("Waiting" alone would hide that someone has to act).
 */
export const AWAITING_APPROVAL_INFO: { label: string; tone: BadgeTone; meaning: string } = {
  label: "Awaiting approval",
  tone: "warning",
  meaning:
    "Paused at an Approval step until someone approves or rejects it (Approvals inbox or the run's page), or its time runs out.",
};

export const RUN_STATUS_OPTIONS = RUN_STATUS_VALUES.map((value) => ({
  value,
  label: RUN_STATUS_INFO[value].label,
}));

export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set([
  "succeeded",
  "partial",
  "failed",
  "cancelled",
]);

export function isRunStatus(value: string | undefined): value is RunStatusValue {
  return (RUN_STATUS_VALUES as readonly string[]).includes(value ?? "");
}

export function RunStatusBadge({
  status,
  awaitingApproval = false,
}: {
  status: string;
  /** The run waits at an undecided approval: reads "Awaiting approval" instead of "Waiting". Default false. */
  awaitingApproval?: boolean;
}) {
  const info =
    status === "waiting" && awaitingApproval
      ? AWAITING_APPROVAL_INFO
      : isRunStatus(status)
        ? RUN_STATUS_INFO[status]
        : null;
  return (
    <span data-testid="run-status">
      <Badge tone={info?.tone ?? "neutral"} dot>
        {info?.label ?? status}
      </Badge>
    </span>
  );
}

export const STEP_STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  success: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  skipped: { label: "Skipped", tone: "neutral" },
  waiting: { label: "Waiting", tone: "neutral" },
};

export function StepStatusBadge({ status }: { status: string }) {
  const info = STEP_STATUS[status];
  return (
    <Badge tone={info?.tone ?? "neutral"} dot>
      {info?.label ?? status}
    </Badge>
  );
}

const WAIT_STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pending", tone: "neutral" },
  resumed: { label: "Resumed", tone: "success" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  failed: { label: "Failed", tone: "danger" },
};

export function WaitStatusBadge({ status }: { status: string }) {
  const info = WAIT_STATUS[status];
  return <Badge tone={info?.tone ?? "neutral"}>{info?.label ?? status}</Badge>;
}

export const WAIT_KIND_LABELS: Record<string, string> = {
  delay: "Wait",
  approval: "Approval",
  retry: "Retry",
  later: "Later step",
};
