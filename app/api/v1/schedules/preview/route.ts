import { apiRoute, readJson } from "@/lib/api/route";
import { previewSchedule } from "@/lib/automations/schedules/preview";

/** `{ cron, timezone, audience?, count?, from? }` → the next fire times, the DST rule, the audience's size now. */
export const POST = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  previewSchedule(caller.tenant.id, await readJson(req)),
);
