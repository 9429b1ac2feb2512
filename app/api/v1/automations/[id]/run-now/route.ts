import { apiRoute, json, readOptionalJson } from "@/lib/api/route";
import { runNow } from "@/lib/automations/schedules/manage";

/** Fires a scheduled automation now, through the heartbeat's path; answers the fire (202). */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  json(await runNow(caller, params.id, await readOptionalJson(req)), 202),
);
