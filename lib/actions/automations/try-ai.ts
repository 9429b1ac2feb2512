"use server";

import { action } from "@/lib/actions/action";
import { aiTryInput, tryAi } from "@/lib/automations/dry-run/ai-try";

/**
 * "Try with the model" in an AI step's settings: asks the shop's model once with the step as
 * typed and shows the answer. It spends one of the shop's hourly AI questions, so it is for those
 * who write flows: editors and admins.
 */
export const tryAiAction = action({ role: "editor", input: aiTryInput }, async (input, caller) =>
  tryAi(caller.tenant.id, input, { timeZone: caller.tenant.timezone }),
);
