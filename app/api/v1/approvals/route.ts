import { apiRoute, searchParams } from "@/lib/api/route";
import { listApprovals } from "@/lib/automations/waits/approvals";

export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listApprovals(caller.tenant.id, searchParams(req)),
);
