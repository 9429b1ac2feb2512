import type { Metadata } from "next";
import { ShopSettingsForm } from "@/components/settings/shop-settings-form";
import { SigningSecretSection } from "@/components/settings/signing-secret-section";
import { EmergencyBrakeSection } from "@/components/settings/emergency-brake-section";
import { brakeState } from "@/lib/automations/brake/brake";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { signingSecretStatus } from "@/lib/credentials/signing-secret";
import { MessagingSection } from "@/components/settings/messaging-section";
import { shopMessaging } from "@/lib/messaging/store";

export const metadata: Metadata = { title: "Shop settings" };

/** Zones the runtime knows, plus UTC itself (which `supportedValuesOf` leaves out). */
function timeZones(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone")];
}

export default async function ShopSettingsPage() {
  const caller = await requireCaller();
  const isAdmin = hasRole(caller.role, "admin");
  return (
    <div className="space-y-6">
      <ShopSettingsForm
        name={caller.tenant.name}
        timezone={caller.tenant.timezone}
        zones={timeZones()}
        canEdit={isAdmin}
      />
      <MessagingSection settings={await shopMessaging(caller.tenant.id)} canEdit={isAdmin} />
      <SigningSecretSection status={await signingSecretStatus(caller.tenant.id)} canManage={isAdmin} />
      <EmergencyBrakeSection on={(await brakeState(caller.tenant.id)).on} canManage={isAdmin} />
    </div>
  );
}
