"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { resetToBuiltin } from "@/lib/automations/schedules/manage";

const input = z.object({ id: z.string().min(1).max(200) });

/** "Reset to built-in": publishes the platform's definition as a new version (admins only). */
export const resetAutomationToBuiltinAction = action({ role: "admin", input }, async ({ id }, caller) => {
  const automation = await resetToBuiltin(caller, id);
  refresh();
  return { id: automation.id, version: automation.version, status: automation.status };
});
