import type { Task } from "graphile-worker";
import { rejectImpossibleQuorums, sendApprovalFollowUps } from "@/lib/automations/waits/reminders";

/** Every minute: reject quorums that became impossible, remind the approvers of undecided approvals, then tell the admins, once each. */
export const approvalRemind: Task = async (_payload, helpers) => {
  // First: quorum approvals that can no longer be approved (someone left the shop) follow 'Rejected'.
  const rejected = await rejectImpossibleQuorums();
  if (rejected)
    helpers.logger.info(`Approvals that can no longer be approved: ${rejected} followed 'Rejected'.`);
  const { reminded, escalated, emails } = await sendApprovalFollowUps();
  // Said only when something was sent, so a quiet shop's worker log stays quiet every minute.
  if (reminded || escalated)
    helpers.logger.info(
      `Approvals nobody decided: reminded the approvers of ${reminded}, told the admins of ${escalated} (${emails} emails).`,
    );
};
