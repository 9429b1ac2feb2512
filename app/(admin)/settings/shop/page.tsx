import type { Metadata } from "next";
import { ShopSettingsForm } from "@/components/settings/shop-settings-form";
import { hasRole } from "@/lib/auth/roles";
import { requireCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Shop settings" };

/** Zones the runtime knows, plus UTC itself (which `supportedValuesOf` leaves out). */
function timeZones(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone")];
}

export default async function ShopSettingsPage() {
  const caller = await requireCaller();
  return (
    <ShopSettingsForm
      name={caller.tenant.name}
      timezone={caller.tenant.timezone}
      zones={timeZones()}
      canEdit={hasRole(caller.role, "admin")}
    />
  );
}
