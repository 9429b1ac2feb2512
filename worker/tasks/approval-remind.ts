import type { Task } from "graphile-worker";
import { sendApprovalFollowUps } from "@/lib/automations/waits/reminders";

/** Every minute: remind the approvers of undecided approvals, then tell the admins, once each. */
export const approvalRemind: Task = async (_payload, helpers) => {
  const { reminded, escalated, emails } = await sendApprovalFollowUps();
  if (reminded || escalated)
    helpers.logger.info(
      `Approvals: approvers of ${reminded} reminded and admins told of ${escalated}, in ${emails} email(s).`,
    );
};
