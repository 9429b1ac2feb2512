"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { restoreAutomation } from "@/lib/automations/lifecycle/archive";

const input = z.object({ id: z.string().min(1).max(200) });

/** Restores an archived automation as paused: nothing runs until someone activates it. */
export const restoreAutomationAction = action({ role: "editor", input }, async ({ id }, caller) => {
  const automation = await restoreAutomation(caller, id);
  refresh();
  return { id: automation.id, name: automation.name, status: automation.status };
});
