import { apiRoute } from "@/lib/api/route";
import { cancelAllWaits } from "@/lib/automations/waits/waits";

/** Cancels every pending wait of the caller's shop. */
export const POST = apiRoute({ role: "editor" }, async ({ caller }) => cancelAllWaits(caller, null));
