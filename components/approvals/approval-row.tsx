"use client";

import Link from "next/link";
import { useEffect, useId, useRef } from "react";
import { EntityLink } from "@/components/runs/entity-link";
import { RunLink } from "@/components/runs/run-link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Role } from "@/lib/identity/roles";
import { hasRole } from "@/lib/identity/roles";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import { shortRunId } from "@/lib/automations/runs/short-id";
import { ApprovalFollowUps } from "./approval-follow-ups";
import { ApprovalOutcome, ApprovalStateBadge } from "./approval-state";
import { ApprovalVotes, useOwnVote } from "./approval-votes";
import { DecisionBox, type DecisionRefusal } from "./decision-box";
import { RunProgress } from "./run-progress";
import { TimesOutIn } from "./times-out-in";

export interface ApprovalRowProps {
  approval: ApprovalView;
  role: Role;
  /** The approval a `?wait=` link points at: marked, scrolled to and focused. */
  highlighted: boolean;
  /** Set when a decision from this page was refused for good (decided elsewhere, timed out…). */
  refusal: DecisionRefusal | null;
  onDecided: (approval: ApprovalView) => void;
  onRefused: (waitId: string, refusal: DecisionRefusal) => void;
}

/** Who may decide, when the signed-in person may not. */
function whoDecides(approval: ApprovalView, role: Role): string {
  if (approval.approvers.some((a) => "team" in a || a.required > 1) || approval.approvers.length > 1)
    return `This approval asks ${approval.asks}; you can follow it here.`;
  if (approval.approverRole === "admin")
    return "Only an admin can decide this approval; you can follow it here.";
  return role === "viewer"
    ? "Editors and admins decide approvals; you can follow this one here."
    : "Editors and admins decide this approval.";
}

/**
 * One approval of the inbox: what is asked, by which automation, about which record, since when
 * and until when; then Approve / Reject for those who may decide, or how it ended and where its
 * run is now.
 */
export function ApprovalRow({
  approval,
  role,
  highlighted,
  refusal,
  onDecided,
  onRefused,
}: ApprovalRowProps) {
  const titleId = useId();
  const ref = useRef<HTMLLIElement>(null);
  const pending = approval.status === "pending" && !refusal;
  const own = useOwnVote(approval.votes);
  const mayDecide = hasRole(role, approval.approverRole) && own === null;

  useEffect(() => {
    if (!highlighted || !ref.current) return;
    ref.current.scrollIntoView({ block: "center" });
    ref.current.focus({ preventScroll: true });
  }, [highlighted]);

  return (
    <li
      ref={ref}
      tabIndex={highlighted ? -1 : undefined}
      aria-labelledby={titleId}
      data-testid="approval-row"
      data-wait-id={approval.waitId}
      data-highlighted={highlighted || undefined}
      className={cn(
        "px-5 py-4 outline-none",
        highlighted && "bg-indigo-50/50 ring-2 ring-indigo-500 ring-inset",
      )}
    >
      {highlighted && (
        <p className="mb-1 text-xs font-medium text-indigo-700">The approval your link points to</p>
      )}
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 space-y-1">
          {/* The page's h1 is "Approvals"; each approval is a section under it. */}
          <h2 id={titleId} className="text-sm font-semibold break-words text-zinc-900">
            {approval.title}
          </h2>
          <p className="text-sm break-words text-zinc-600">
            <Link
              href={`/automations/${approval.automationId}/runs`}
              className="text-zinc-900 underline-offset-2 hover:underline"
            >
              {approval.automationName ?? "Deleted automation"}
            </Link>
            {approval.entity && (
              <>
                <span aria-hidden="true"> · </span>
                <span className="sr-only">, about </span>
                <EntityLink
                  domain={approval.entity.domain}
                  id={approval.entity.id}
                  label={approval.entity.label}
                />
              </>
            )}
          </p>
          <p className="text-xs text-zinc-500">
            Asked <RelativeTime value={approval.askedAt} brief />
            {approval.status === "pending" && (
              <>
                <span aria-hidden="true"> · </span>
                <TimesOutIn value={approval.timesOutAt} />
              </>
            )}
            <span aria-hidden="true"> · </span>
            <RunLink runId={approval.runId} className="text-xs">
              Run {shortRunId(approval.runId)}
            </RunLink>
          </p>
          <ApprovalFollowUps remindedAt={approval.remindedAt} escalatedAt={approval.escalatedAt} />
          <ApprovalVotes votes={approval.votes} needed={approval.needed} />
        </div>
        {refusal ? (
          // What this page knew is stale; the run's live status below says what happened.
          <Badge tone="neutral" dot>
            No longer waiting
          </Badge>
        ) : (
          <ApprovalStateBadge state={approval.status} />
        )}
      </div>

      <div className="mt-3 max-w-2xl">
        {refusal ? (
          <div className="space-y-2">
            <Notice tone="error" title={refusal.title}>
              {refusal.message}
            </Notice>
            <RunProgress runId={approval.runId} />
          </div>
        ) : pending ? (
          mayDecide ? (
            <DecisionBox
              waitId={approval.waitId}
              title={approval.title}
              onDecided={onDecided}
              onRefused={(refused) => onRefused(approval.waitId, refused)}
            />
          ) : own ? (
            <p className="text-sm text-zinc-600" data-testid="approval-own-vote">
              You {own.decision === "approved" ? "approved" : "rejected"} this; it waits for the others’
              votes.
            </p>
          ) : (
            <p className="text-sm text-zinc-600" data-testid="approval-who-decides">
              {whoDecides(approval, role)}
            </p>
          )
        ) : (
          <div className="space-y-2">
            <ApprovalOutcome
              state={approval.status}
              decidedBy={approval.decidedBy}
              decidedAt={approval.decidedAt}
              note={approval.note}
              endedAt={approval.status === "timed_out" ? approval.timesOutAt : null}
              reason={approval.reason}
            />
            <RunProgress runId={approval.runId} />
          </div>
        )}
      </div>
    </li>
  );
}
