import { apiRoute, searchParams } from "@/lib/api/route";
import { listTasks } from "@/lib/automations/work/tasks";

/** Staff tasks created by flows: `?status=open|done` (default open), keyset-paginated. */
export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listTasks(caller.tenant.id, searchParams(req)),
);
