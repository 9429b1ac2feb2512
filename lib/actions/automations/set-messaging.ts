"use server";

import { z } from "zod";
import { action } from "@/lib/actions/action";
import { automationMessagingInput } from "@/lib/messaging/settings";
import { setAutomationMessaging } from "@/lib/messaging/store";

const input = automationMessagingInput.extend({ id: z.string().min(1).max(200) });

/** Sets an automation's message priority and expiry from the Held tab (editors). */
export const setMessagingAction = action({ role: "editor", input }, async ({ id, ...messaging }, caller) =>
  setAutomationMessaging(caller, id, messaging),
);
