"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { messagingInput } from "@/lib/messaging/settings";
import { setShopMessaging } from "@/lib/messaging/store";

/** Admin-only: quiet hours and the shop's cap on marketing messages per customer (Settings → Shop). */
export const updateMessagingAction = action(
  { role: "admin", input: messagingInput },
  async (input, caller) => {
    const saved = await setShopMessaging(caller, input);
    refresh();
    return saved;
  },
);
