import { apiRoute, searchParams } from "@/lib/api/route";
import { listFires } from "@/lib/automations/schedules/manage";

/** A scheduled automation's fires, latest first, including missed ones: `{ items, nextCursor }`. */
export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) =>
  listFires(caller.tenant.id, params.id, searchParams(req)),
);
