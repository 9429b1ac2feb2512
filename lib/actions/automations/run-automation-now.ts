"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { runNow } from "@/lib/automations/schedules/manage";

const input = z.object({ id: z.string().min(1).max(200), nodeId: z.string().min(1).max(100).optional() });

/** "Run now": fires a scheduled automation at once, through the same path as its schedule. */
export const runAutomationNowAction = action({ role: "editor", input }, async ({ id, nodeId }, caller) => {
  const fire = await runNow(caller, id, nodeId ? { nodeId } : {});
  refresh();
  return fire;
});
