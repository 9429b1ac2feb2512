import { apiRoute } from "@/lib/api/route";
import { listVersions } from "@/lib/automations/lifecycle/versions";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) => ({
  items: await listVersions(caller.tenant.id, params.id),
  nextCursor: null,
}));
