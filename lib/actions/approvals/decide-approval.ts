"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { decideApproval } from "@/lib/automations/waits/approvals";

const input = z.object({
  waitId: z.string().min(1).max(200),
  decision: z.enum(["approved", "rejected"]),
  note: z.string().max(2000).optional(),
});

/**
 * Approves or rejects a pending approval (editors and admins; admins only where the step asks).
 * Returns the approval as decided, so the page can show who decided what without refetching.
 */
export const decideApprovalAction = action(
  { role: "editor", input },
  async ({ waitId, ...decision }, caller) => decideApproval(caller, waitId, decision),
);
