import { redirect } from "next/navigation";
import { requireCaller } from "@/lib/auth/session";

/** Settings has no overview of its own yet: open its first tab. */
export default async function SettingsPage() {
  await requireCaller();
  redirect("/settings/shop");
}
