"use server";

import { z } from "zod";
import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { holdoutInput, setHoldout } from "@/lib/automations/lifecycle/set-holdout";

const input = holdoutInput.extend({ id: z.string().min(1).max(200) });

/** Sets the share of customers an automation holds out, from its Performance tab (editors). */
export const setHoldoutAction = action({ role: "editor", input }, async ({ id, percent }, caller) => {
  const automation = await setHoldout(caller, id, { percent });
  refresh();
  return { holdoutPercent: automation.holdoutPercent };
});
