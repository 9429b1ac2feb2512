"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { archiveAutomation } from "@/lib/automations/lifecycle/archive";

const input = z.object({ id: z.string().min(1).max(200) });

/**
 * Archives an automation: it stops for good, its waiting runs are cancelled when they wake, and its
 * runs and history are kept. Built-ins are refused. Returns the impact sentence for the notice.
 */
export const archiveAutomationAction = action({ role: "editor", input }, async ({ id }, caller) => {
  const { automation, impact } = await archiveAutomation(caller, id);
  refresh();
  return {
    id: automation.id,
    name: automation.name,
    status: automation.status,
    waitingRuns: impact.waitingRuns,
    message: impact.message,
  };
});
