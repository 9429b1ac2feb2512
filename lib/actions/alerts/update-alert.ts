"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { updateAlertRule } from "@/lib/alerts/rules";
import { updateAlertInput } from "@/lib/alerts/kinds";

const input = z.object({ id: z.uuid("that is not an alert id"), changes: updateAlertInput });

/** Changes an alert rule (admin): fields left out keep their value, and so does a webhook's secret. */
export const updateAlertAction = action({ role: "admin", input }, async ({ id, changes }, caller) => {
  const rule = await updateAlertRule(caller, id, changes);
  refresh();
  return rule;
});
