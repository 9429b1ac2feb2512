"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { keepBranchInput, sendEveryoneDownBranch } from "@/lib/automations/lifecycle/keep-branch";

const input = keepBranchInput.extend({ id: z.string().min(1).max(200) });

/**
 * "Send everyone down Group B" on a split's report: a draft with the split replaced by the
 * winning branch, to review and publish as usual. Returns the draft's new revision.
 */
export const sendDownBranchAction = action({ role: "editor", input }, async ({ id, ...body }, caller) => {
  const automation = await sendEveryoneDownBranch(caller, id, body);
  return {
    draftRevision: automation.draftRevision,
    hasUnpublishedChanges: automation.hasUnpublishedChanges,
    readyIssues: automation.readyIssues,
  };
});
