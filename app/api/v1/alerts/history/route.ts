import { apiRoute, searchParams } from "@/lib/api/route";
import { listAlertHistory } from "@/lib/alerts/history";

export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listAlertHistory(caller.tenant.id, searchParams(req)),
);
