import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ExactTime } from "@/components/ui/exact-time";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ApprovalState } from "@/lib/automations/nodes/timing/approval.run";

/** Each state's word and tone; the word always says it, colour never carries it alone. */
export const APPROVAL_STATES: Record<ApprovalState, { label: string; tone: BadgeTone }> = {
  pending: { label: "Awaiting decision", tone: "warning" },
  approved: { label: "Approved", tone: "success" },
  rejected: { label: "Rejected", tone: "danger" },
  timed_out: { label: "Timed out", tone: "neutral" },
  cancelled: { label: "Cancelled", tone: "neutral" },
};

export function ApprovalStateBadge({ state }: { state: ApprovalState }) {
  const info = APPROVAL_STATES[state];
  return (
    <span data-testid="approval-state">
      <Badge tone={info.tone} dot>
        {info.label}
      </Badge>
    </span>
  );
}

export interface ApprovalOutcomeProps {
  state: ApprovalState;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  /** When a timed-out or cancelled approval ended. */
  endedAt: string | null;
  /** Why a cancelled one was cancelled, or a quorum rejected without enough votes ("can no longer be approved"). */
  reason?: string | null;
}

/**
 * How an approval ended, in one sentence: "Approved by ana@shop.test 5 minutes ago", the note
 * below it; "Timed out at Nov 30, 2026, 9:05 AM, so the run followed 'Timed out'"; or why it was
 * cancelled. Nothing for a pending one.
 */
export function ApprovalOutcome({
  state,
  decidedBy,
  decidedAt,
  note,
  endedAt,
  reason,
}: ApprovalOutcomeProps) {
  if (state === "pending") return null;
  return (
    <div className="text-sm text-zinc-700" data-testid="approval-outcome">
      {state === "approved" || state === "rejected" ? (
        <p>
          <span className="font-medium text-zinc-900">{state === "approved" ? "Approved" : "Rejected"}</span>
          {decidedBy && !reason && <> by {decidedBy}</>}
          {decidedAt && (
            <>
              {" "}
              <RelativeTime value={decidedAt} brief />
            </>
          )}
          {reason && `, as it ${reason}`}
          {`, so the run follows '${state === "approved" ? "Approved" : "Rejected"}'.`}
        </p>
      ) : state === "timed_out" ? (
        <p>
          <span className="font-medium text-zinc-900">Timed out</span>
          {decidedBy && <> early, as {decidedBy} decided,</>}
          {endedAt && (
            <>
              {" at "}
              <ExactTime value={endedAt} />
            </>
          )}
          {decidedBy
            ? ", so the run followed 'Timed out'."
            : " with no decision, so the run followed 'Timed out'."}
        </p>
      ) : (
        <p>
          <span className="font-medium text-zinc-900">Cancelled</span>
          {endedAt && (
            <>
              {" "}
              <RelativeTime value={endedAt} brief />
            </>
          )}
          {reason ? `: ${reason}` : " before anyone decided."}
        </p>
      )}
      {note && (
        <blockquote className="mt-1.5 border-l-2 border-zinc-300 pl-3 whitespace-pre-wrap text-zinc-700">
          <span className="sr-only">Note: </span>
          {note}
        </blockquote>
      )}
    </div>
  );
}
