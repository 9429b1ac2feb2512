import { apiRoute, searchParams } from "@/lib/api/route";
import { listOutbox } from "@/lib/automations/work/outbox";

export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listOutbox(caller.tenant.id, searchParams(req)),
);
