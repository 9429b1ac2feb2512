import { quorumSummary, type QuorumSummary, type StoredVote } from "./quorum";

/**
 * What the run history shows about an approval (browser-safe, no I/O): what was asked, of whom,
 * until when, and how it ended. It reads the approval's wait row and its step's output — the engine
 * writes `{ resumeAt, title, approverRole, timeoutHours }` when it pauses there, and a decision adds
 * `{ decision, decidedBy, decidedAt, note }` to both.
 *
 * Terms: an approval is **pending** while nobody has decided and its time has not come; **decided**
 * (`approved` · `rejected`) once someone has; **timed out** when its wait resumed without a
 * decision (the run followed 'Timed out'); **cancelled** when the wait was cancelled or dropped.
 */

export type ApprovalState = "pending" | "approved" | "rejected" | "timed_out" | "cancelled";

export interface ApprovalInfo extends QuorumSummary {
  title: string;
  timeoutHours: number | null;
  state: ApprovalState;
  /** When it times out (or timed out, or would have, for a decided one). */
  timesOutAt: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  /** When the wait ended: the instant it timed out, or was cancelled. */
  resolvedAt: string | null;
  /** When its approvers were reminded (`remindAfterHours`), null until then or without a reminder. */
  remindedAt: string | null;
  /** When the shop's admins were told nobody had decided (`escalateAfterHours`). */
  escalatedAt: string | null;
  /** Why a quorum approval was rejected without enough votes ("can no longer be approved"), else null. */
  reason: string | null;
}

/** The fields of a wait row that say how an approval ended. */
export interface ApprovalWaitFields {
  status: string;
  resumeAt: Date | string;
  resolvedAt: Date | string | null;
  decision: string | null;
  decidedBy: string | null;
  decidedAt: Date | string | null;
  note: string | null;
  /** When the follow-ups were sent (`waits/reminders.ts`); absent where the caller has no wait row. */
  remindedAt?: Date | string | null;
  escalatedAt?: Date | string | null;
}

function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** What an approval step asks, from its output ("Review order #1001"). */
export function askedTitle(output: Record<string, unknown> | null | undefined): string {
  return text(output?.title) ?? "A decision";
}

/**
 * An approval's state from its wait: the decision when there is one (even before the run has
 * resumed on it), else pending, timed out (resumed without one) or cancelled (dropped or failed).
 */
export function approvalState(wait: Pick<ApprovalWaitFields, "status" | "decision">): ApprovalState {
  if (wait.decision === "approved" || wait.decision === "rejected") return wait.decision;
  if (wait.status === "pending") return "pending";
  return wait.status === "resumed" ? "timed_out" : "cancelled";
}

/**
 * The approval of one wait. `output` is its step's output (null when the step row is gone); the
 * wait row wins where both say something, since a decision is written to it first.
 */
export function approvalInfo(
  wait: ApprovalWaitFields,
  output: Record<string, unknown> | null | undefined,
  quorum: { votes: StoredVote[]; teamNames: Map<string, string> } = { votes: [], teamNames: new Map() },
): ApprovalInfo {
  const asked = output ?? {};
  const state = approvalState(wait);
  const hours = asked.timeoutHours;
  return {
    title: askedTitle(asked),
    ...quorumSummary(asked, quorum.votes, quorum.teamNames, state === "pending"),
    reason: text(asked.reason),
    timeoutHours: typeof hours === "number" && Number.isFinite(hours) ? hours : null,
    state,
    // A decision moves the wait's resume time to the decision; the step keeps the original timeout.
    timesOutAt: iso(text(asked.resumeAt)) ?? (wait.decision ? null : iso(wait.resumeAt)),
    decidedBy: wait.decidedBy ?? text(asked.decidedBy),
    decidedAt: iso(wait.decidedAt) ?? iso(text(asked.decidedAt)),
    note: wait.note ?? text(asked.note),
    resolvedAt: iso(wait.resolvedAt),
    remindedAt: iso(wait.remindedAt),
    escalatedAt: iso(wait.escalatedAt),
  };
}

/**
 * An approval as its step's output alone tells it, for a step whose wait is not at hand: decided
 * when the output has a decision, otherwise pending while the step waits and timed out once it
 * succeeded (a resumed approval step without a decision followed 'Timed out').
 */
export function approvalFromStep(step: {
  status: string;
  output: Record<string, unknown> | null;
  finishedAt: string | null;
}): ApprovalInfo {
  const output = step.output ?? {};
  const decision = output.decision === "approved" || output.decision === "rejected" ? output.decision : null;
  const status = step.status === "waiting" ? "pending" : step.status === "success" ? "resumed" : "cancelled";
  return approvalInfo(
    {
      status,
      resumeAt: text(output.resumeAt) ?? "",
      resolvedAt: step.status === "waiting" ? null : step.finishedAt,
      decision,
      decidedBy: null,
      decidedAt: null,
      note: null,
    },
    output,
  );
}

/** Who may decide: "Editors and admins" or "Only admins"; of a quorum, "Asks 2 admins and 1 from Finance." */
export function approverText(info: Pick<ApprovalInfo, "approverRole" | "approvers" | "asks">): string {
  const quorum = info.approvers.length > 1 || info.approvers.some((a) => "team" in a || a.required > 1);
  if (quorum) return `Asks ${info.asks}.`;
  return info.approverRole === "admin" ? "Only admins decide this." : "Editors and admins decide this.";
}

export const APPROVAL_NODE_TYPE = "auto.control.approval";
