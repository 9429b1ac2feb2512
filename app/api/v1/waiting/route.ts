import { apiRoute, searchParams } from "@/lib/api/route";
import { listWaiting } from "@/lib/automations/waits/waits";

/** Every pending wait across the shop, soonest first. */
export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listWaiting(caller.tenant.id, null, searchParams(req)),
);
