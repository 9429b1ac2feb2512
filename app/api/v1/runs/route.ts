import { apiRoute, searchParams } from "@/lib/api/route";
import { listRuns } from "@/lib/automations/runs/history";

export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listRuns(caller.tenant.id, searchParams(req)),
);
