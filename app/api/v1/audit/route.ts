import { apiRoute, searchParams } from "@/lib/api/route";
import { listAudit } from "@/lib/audit/log";

/** Who published, paused, reverted, decided, … and when, newest first (admins only). */
export const GET = apiRoute({ role: "admin" }, async ({ req, caller }) =>
  listAudit(caller.tenant.id, searchParams(req)),
);
