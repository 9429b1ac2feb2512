"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { setActive } from "@/lib/automations/lifecycle/set-active";

const input = z.object({
  id: z.string().min(1).max(200),
  active: z.boolean(),
});

/**
 * Pauses or re-activates an automation without changing its version ("off means off": waits that
 * come due while it is paused are dropped). Returns the impact sentence so the list can tell the
 * person what happens to the runs waiting right now.
 */
export const setAutomationActiveAction = action({ role: "editor", input }, async ({ id, active }, caller) => {
  const { automation, impact } = await setActive(caller, id, active);
  refresh();
  return {
    id: automation.id,
    name: automation.name,
    status: automation.status,
    waitingRuns: impact.waitingRuns,
    message: impact.message,
  };
});
