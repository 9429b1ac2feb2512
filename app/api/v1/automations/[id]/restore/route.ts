import { apiRoute } from "@/lib/api/route";
import { restoreAutomation } from "@/lib/automations/lifecycle/archive";

/** Brings an archived automation back as paused: nothing runs until someone activates it. */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  restoreAutomation(caller, params.id),
);
