import { apiRoute, readJson } from "@/lib/api/route";
import { setCaps } from "@/lib/automations/lifecycle/set-caps";

/** Sets an automation's caps at once, without a new version (editor; audited). */
export const PUT = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  setCaps(caller, params.id, await readJson(req)),
);
