import { apiRoute, readJson } from "@/lib/api/route";
import { setAutomationMessaging } from "@/lib/messaging/store";

/** Sets an automation's message priority and expiry at once, without a new version (editor; audited). */
export const PUT = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  setAutomationMessaging(caller, params.id, await readJson(req)),
);
