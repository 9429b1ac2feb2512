"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { cancelAllWaits } from "@/lib/automations/waits/waits";

/** No automation: every pending wait of the shop. */
const input = z.object({ automationId: z.string().min(1).max(200).nullable() });

/** Cancels every pending wait of one automation or of the shop (the Waiting lists' "Cancel all", after confirming). */
export const cancelAllWaitsAction = action({ role: "editor", input }, async ({ automationId }, caller) =>
  cancelAllWaits(caller, automationId),
);
