"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { cancelWaitById } from "@/lib/automations/waits/waits";

const input = z.object({ waitId: z.string().min(1).max(200) });

/** Cancels one pending wait from the run page or the Waiting list (editors and admins). */
export const cancelWaitAction = action({ role: "editor", input }, async ({ waitId }, caller) => {
  const wait = await cancelWaitById(caller, waitId);
  return { id: wait.id, status: wait.status, runId: wait.runId };
});
