import { RunLink } from "@/components/runs/run-link";
import { Notice } from "@/components/ui/notice";
import type { ApprovalLookup } from "@/lib/automations/waits/approval-reads";
import { ApprovalOutcome } from "./approval-state";

/**
 * What became of the approval a `?wait=` link points to when it is not in the list shown: decided
 * or timed out (and by whom, when), still waiting further down, or not found in this shop.
 */
export function LinkedApprovalNotice({ approval }: { approval: ApprovalLookup | null }) {
  if (!approval)
    return (
      <div className="border-b border-zinc-200 p-5">
        <Notice tone="warning" title="That approval was not found">
          The link may be mistyped, or the approval belongs to another shop or to an automation that was
          deleted.
        </Notice>
      </div>
    );
  const run = (
    <RunLink runId={approval.runId} className="font-medium underline">
      Open its run
    </RunLink>
  );
  return (
    <div className="border-b border-zinc-200 p-5" data-testid="linked-approval">
      {approval.state === "pending" ? (
        <Notice tone="info" title={`“${approval.title}” is still waiting`}>
          It is not on this page of the list. Decide it on its run&apos;s page: {run}.
        </Notice>
      ) : (
        <Notice tone="info" title={`“${approval.title}” is no longer waiting`}>
          <ApprovalOutcome
            state={approval.state}
            decidedBy={approval.decidedBy}
            decidedAt={approval.decidedAt}
            note={approval.note}
            endedAt={approval.resolvedAt ?? approval.timesOutAt}
            reason={approval.reason}
          />
          <p className="mt-1">{run}</p>
        </Notice>
      )}
    </div>
  );
}
