import { apiRoute, searchParams } from "@/lib/api/route";
import { listWaiting } from "@/lib/automations/waits/waits";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) =>
  listWaiting(caller.tenant.id, params.id, searchParams(req)),
);
