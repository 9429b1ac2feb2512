import type { Task } from "graphile-worker";
import { sendApprovalFollowUps } from "@/lib/automations/waits/reminders";

/** Every minute: remind the approvers of undecided approvals, then tell the admins, once each. */
export const approvalRemind: Task = async (_payload, helpers) => {
  const { reminded, escalated, emails } = await sendApprovalFollowUps();
  // Said only when something was sent, so a quiet shop's worker log stays quiet every minute.
  if (reminded || escalated)
    helpers.logger.info(
      `Approvals nobody decided: reminded the approvers of ${reminded}, told the admins of ${escalated} (${emails} emails).`,
    );
};
