import { apiRoute, searchParams } from "@/lib/api/route";
import { listDeliveries } from "@/lib/connections/store";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) =>
  listDeliveries(caller.tenant.id, params.id, searchParams(req)),
);
