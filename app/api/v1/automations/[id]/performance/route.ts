import { apiRoute, searchParams } from "@/lib/api/route";
import { automationPerformance } from "@/lib/automations/performance/report";

/** An automation's Performance report: conversions, attributed revenue, by day, step, version, branch; the holdout. */
export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) =>
  automationPerformance(caller.tenant.id, params.id, searchParams(req)),
);
