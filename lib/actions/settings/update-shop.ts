"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { shopSettingsInput, updateShopSettings } from "@/lib/auth/tenants";

/** Admin-only: the shop's name and time zone (Settings → Shop). */
export const updateShopAction = action({ role: "admin", input: shopSettingsInput }, async (input, caller) => {
  const saved = await updateShopSettings(caller, input);
  refresh();
  return saved;
});
