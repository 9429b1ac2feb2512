import { Badge, type BadgeTone } from "@/components/ui/badge";

export const RUN_STATUS_VALUES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "partial",
  "failed",
  "cancelled",
  "held",
  "held_out",
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
    label: "Partly failed",
    tone: "warning",
    meaning:
      "Some actions worked and some failed for good; the run shows which and why. Counted with the failed runs.",
  },
  failed: { label: "Failed", tone: "danger", meaning: "No action succeeded, or the run hit an error." },
  cancelled: {
    label: "Cancelled",
    tone: "neutral",
    meaning:
      "Stopped without acting further: someone cancelled it, or the automation was paused or edited while it waited.",
  },
  held: {
    label: "Held",
    tone: "warning",
    meaning:
      "Stopped before it started by one of the automation's caps; it starts when someone releases it from the Held list, or never if they discard it.",
  },
  held_out: {
    label: "Held out",
    tone: "quiet",
    meaning:
      "The customer is in the automation's holdout group: the run took no actions on purpose, so the Performance tab can compare what customers do without it. Neither a success nor a failure.",
  },
};

/**
 * How a succeeded run that took no action reads: every branch stopped at a condition (SPEC §2).
 * Not a success to celebrate, nor a failure: its own quiet badge, left out of the success rate.
 */
export const NOTHING_TO_DO_INFO: { label: string; tone: BadgeTone; meaning: string } = {
  label: "Nothing to do",
  tone: "quiet",
  meaning:
    "Ran, and a condition answered so that no action was needed; the run says which. Not counted in the success rate.",
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

/**
 * The runs list's status filter: every status, "Nothing to do" beside Succeeded, and every run
 * with a failed action (failed and partly failed) beside Failed.
 */
export const RUN_STATUS_OPTIONS: { value: string; label: string }[] = RUN_STATUS_VALUES.flatMap((value) => {
  const option = { value, label: RUN_STATUS_INFO[value].label };
  if (value === "succeeded") return [option, { value: "nothing_to_do", label: NOTHING_TO_DO_INFO.label }];
  if (value === "failed") return [option, { value: "failed_or_partial", label: "Failed or partly failed" }];
  return [option];
});

export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set([
  "succeeded",
  "partial",
  "failed",
  "cancelled",
  "held_out",
]);

export function isRunStatus(value: string | undefined): value is RunStatusValue {
  return (RUN_STATUS_VALUES as readonly string[]).includes(value ?? "");
}

export function RunStatusBadge({
  status,
  awaitingApproval = false,
  actionsTaken = null,
}: {
  status: string;
  /** The run waits at an undecided approval: reads "Awaiting approval" instead of "Waiting". Default false. */
  awaitingApproval?: boolean;
  /** A settled run's actions: 0 on a succeeded run reads "Nothing to do". Default unknown. */
  actionsTaken?: number | null;
}) {
  const info =
    status === "waiting" && awaitingApproval
      ? AWAITING_APPROVAL_INFO
      : status === "succeeded" && actionsTaken === 0
        ? NOTHING_TO_DO_INFO
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
  event: "Wait for event",
};
