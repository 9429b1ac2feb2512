import { redirect } from "next/navigation";
import { currentCaller } from "@/lib/auth/session";

/** The root has nothing of its own: signed-in staff land on Automations, everyone else signs in. */
export default async function Home() {
  const caller = await currentCaller();
  redirect(caller ? "/automations" : "/sign-in");
}
