import type { Metadata } from "next";
import { AttributionSettingsForm } from "@/components/settings/attribution-settings-form";
import { requireCaller } from "@/lib/auth/session";
import { hasRole } from "@/lib/identity/roles";
import { readAttributionSettings } from "@/lib/automations/performance/settings";

export const metadata: Metadata = { title: "Automation settings" };

export default async function AutomationSettingsPage() {
  const caller = await requireCaller();
  return (
    <AttributionSettingsForm
      settings={await readAttributionSettings(caller)}
      canEdit={hasRole(caller.role, "admin")}
    />
  );
}
