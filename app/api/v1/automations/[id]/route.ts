import { apiRoute } from "@/lib/api/route";
import { getAutomation } from "@/lib/automations/service";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getAutomation(caller.tenant.id, params.id),
);
