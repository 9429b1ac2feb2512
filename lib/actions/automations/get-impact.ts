"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { automationImpact } from "@/lib/automations/impact";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/policies";

const input = z.object({
  id: z.string().min(1).max(200),
  action: z.enum(["publish", "pause", "archive"], "choose publish, pause or archive"),
  /** Name the sentence after this policy instead of the automation's own (a revert brings its version's). */
  policy: z.enum(IN_FLIGHT_POLICIES).optional(),
});

/**
 * Read-only: how many runs are waiting and what publishing, pausing or archiving would do to them, as the
 * sentence the person reads before confirming. Viewers may read it too.
 */
export const getImpactAction = action({ role: "viewer", input }, async (parsed, caller) => {
  const impact = await automationImpact(caller.tenant.id, parsed.id, parsed.action, parsed.policy);
  return { waitingRuns: impact.waitingRuns, message: impact.message };
});
