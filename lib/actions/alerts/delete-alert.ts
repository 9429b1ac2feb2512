"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { deleteAlertRule } from "@/lib/alerts/rules";

const input = z.object({ id: z.uuid("that is not an alert id") });

/** Deletes an alert rule (admin); what it sent stays in the history. */
export const deleteAlertAction = action({ role: "admin", input }, async ({ id }, caller) => {
  await deleteAlertRule(caller, id);
  refresh();
  return { id };
});
