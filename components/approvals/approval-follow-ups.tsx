"use client";

import { ExactTime } from "@/components/ui/exact-time";

export interface ApprovalFollowUpsProps {
  /** When the approvers were reminded, or null. */
  remindedAt: string | null;
  /** When the shop's admins were told nobody had decided, or null. */
  escalatedAt: string | null;
}

/**
 * What Tillflow did while nobody decided an approval, so ops can see it happened: "Approvers
 * reminded at Dec 4, 2026, 2:05 PM GMT+1 · Admins told at …", in the shop's time zone. Nothing
 * when neither was sent.
 */
export function ApprovalFollowUps({ remindedAt, escalatedAt }: ApprovalFollowUpsProps) {
  if (!remindedAt && !escalatedAt) return null;
  return (
    <p className="text-xs text-zinc-600" data-testid="approval-follow-ups">
      {remindedAt && (
        <span>
          Approvers reminded at <ExactTime value={remindedAt} />
        </span>
      )}
      {remindedAt && escalatedAt && " · "}
      {escalatedAt && (
        <span>
          Admins told at <ExactTime value={escalatedAt} />
        </span>
      )}
    </p>
  );
}
