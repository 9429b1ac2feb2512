"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { createAlertRule } from "@/lib/alerts/rules";
import { createAlertInput } from "@/lib/alerts/kinds";

/** Adds an alert rule (admin); the reply never carries a webhook's secret. */
export const createAlertAction = action({ role: "admin", input: createAlertInput }, async (input, caller) => {
  const rule = await createAlertRule(caller, input);
  refresh();
  return rule;
});
