import { apiRoute, readJson } from "@/lib/api/route";
import { setHoldout } from "@/lib/automations/lifecycle/set-holdout";

/** Sets the share of customers an automation holds out (editor; audited), for runs starting afterwards. */
export const PUT = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  setHoldout(caller, params.id, await readJson(req)),
);
