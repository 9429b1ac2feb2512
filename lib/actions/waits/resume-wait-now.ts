"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { resumeNow } from "@/lib/automations/waits/waits";

const input = z.object({ waitId: z.string().min(1).max(200) });

/** Runs a pending wait now, as if its time had come (editors and admins). */
export const resumeWaitNowAction = action({ role: "editor", input }, async ({ waitId }, caller) => {
  const wait = await resumeNow(caller, waitId);
  return { id: wait.id, status: wait.status, runId: wait.runId };
});
