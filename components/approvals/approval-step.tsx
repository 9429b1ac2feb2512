"use client";

import { useState } from "react";
import { TimesOutIn } from "@/components/approvals/times-out-in";
import { Notice } from "@/components/ui/notice";
import { hasRole, type Role } from "@/lib/identity/roles";
import {
  approvalFromStep,
  approverText,
  type ApprovalInfo,
} from "@/lib/automations/nodes/timing/approval.run";
import { ApprovalFollowUps } from "./approval-follow-ups";
import { ApprovalOutcome } from "./approval-state";
import { ApprovalVotes, useOwnVote } from "./approval-votes";
import { DecisionBox, type DecisionRefusal } from "./decision-box";

export interface ApprovalStepProps {
  step: { status: string; output: Record<string, unknown> | null; finishedAt: string | null };
  /** The step's wait, when the run has it: its id and what it says about the approval. */
  wait: { id: string; approval: ApprovalInfo | null } | null;
  role: Role;
}

/**
 * An Approval step in a run's timeline: what it asks and of whom; while pending, when it times out
 * and the decision box for those who may decide; once over, who decided what and when, with the
 * note — or when it timed out.
 */
export function ApprovalStep({ step, wait, role }: ApprovalStepProps) {
  const [refusal, setRefusal] = useState<DecisionRefusal | null>(null);
  const info = wait?.approval ?? approvalFromStep(step);
  const own = useOwnVote(info.votes);
  const mayDecide = wait !== null && hasRole(role, info.approverRole) && own === null;
  return (
    <div className="mt-2 space-y-2 text-sm" data-testid="approval-step">
      <p className="text-zinc-900">
        <span className="font-medium">Asks: </span>
        {info.title}
        <span className="text-zinc-500"> · {approverText(info)}</span>
      </p>
      <ApprovalVotes votes={info.votes} needed={info.needed} />
      {refusal && (
        <Notice tone="error" title={refusal.title}>
          {refusal.message}
        </Notice>
      )}
      <ApprovalFollowUps remindedAt={info.remindedAt} escalatedAt={info.escalatedAt} />
      {info.state === "pending" ? (
        <>
          {info.timesOutAt && <TimesOutIn value={info.timesOutAt} className="block text-xs text-zinc-600" />}
          {mayDecide && wait ? (
            <div className="max-w-xl rounded-lg bg-zinc-50 p-3 ring-1 ring-zinc-200">
              <DecisionBox waitId={wait.id} title={info.title} onRefused={setRefusal} />
            </div>
          ) : (
            role === "viewer" && (
              <p className="text-zinc-600">
                Editors and admins decide approvals; you can follow this one here.
              </p>
            )
          )}
        </>
      ) : (
        <ApprovalOutcome
          state={info.state}
          decidedBy={info.decidedBy}
          decidedAt={info.decidedAt}
          note={info.note}
          endedAt={info.resolvedAt ?? step.finishedAt}
          reason={info.reason}
        />
      )}
    </div>
  );
}
