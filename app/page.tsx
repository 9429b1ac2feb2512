import { redirect } from "next/navigation";
import { currentCaller } from "@/lib/auth/session";

/** The root has nothing of its own: signed-in staff land on the Dashboard, everyone else signs in. */
export default async function Home() {
  const caller = await currentCaller();
  redirect(caller ? "/dashboard" : "/sign-in");
}
