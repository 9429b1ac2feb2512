import { apiRoute } from "@/lib/api/route";
import { getRun } from "@/lib/automations/runs/detail";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getRun(caller.tenant.id, params.id),
);
