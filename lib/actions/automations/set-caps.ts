"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { capsInput } from "@/lib/automations/caps/caps";
import { setCaps } from "@/lib/automations/lifecycle/set-caps";

const input = capsInput.extend({ id: z.string().min(1).max(200) });

/** Sets an automation's caps from the Held tab's form (editors). */
export const setCapsAction = action({ role: "editor", input }, async ({ id, ...caps }, caller) => {
  const automation = await setCaps(caller, id, caps);
  return { caps: automation.caps };
});
