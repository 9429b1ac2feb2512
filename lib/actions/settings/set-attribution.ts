"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { attributionInput, setAttributionSettings } from "@/lib/automations/performance/settings";

/** Admin-only: the automations' goal and attribution window (Settings → Automations). */
export const setAttributionAction = action(
  { role: "admin", input: attributionInput },
  async (input, caller) => {
    const saved = await setAttributionSettings(caller, input);
    refresh();
    return saved;
  },
);
