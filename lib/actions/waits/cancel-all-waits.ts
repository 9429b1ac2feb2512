"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { cancelAllWaits } from "@/lib/automations/waits";

const input = z.object({ automationId: z.string().min(1).max(200) });

/** Cancels every pending wait of one automation (the Waiting list's "Cancel all", after confirming). */
export const cancelAllWaitsAction = action({ role: "editor", input }, async ({ automationId }, caller) =>
  cancelAllWaits(caller, automationId),
);
