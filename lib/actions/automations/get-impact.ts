"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { automationImpact } from "@/lib/automations/lifecycle/impact";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/lifecycle/policies";

const input = z.object({
  id: z.string().min(1).max(200),
  action: z.enum(["publish", "pause", "archive"], "choose publish, pause or archive"),
  /** Name the sentence after this policy instead of the draft's (the publish dialog's choice). */
  policy: z.enum(IN_FLIGHT_POLICIES).optional(),
  /** Publish this old version instead of the draft (a revert): its steps and its policy. */
  version: z.number().int().min(1).optional(),
});

/**
 * Read-only: how many runs are waiting and what publishing, pausing or archiving would do to them, as the
 * sentence the person reads before confirming. Viewers may read it too.
 */
export const getImpactAction = action({ role: "viewer", input }, async (parsed, caller) => {
  const impact = await automationImpact(caller.tenant.id, parsed.id, parsed.action, {
    policy: parsed.policy,
    version: parsed.version,
  });
  return { waitingRuns: impact.waitingRuns, message: impact.message };
});
