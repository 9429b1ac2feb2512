import { apiRoute, readJson } from "@/lib/api/route";
import { decideApproval } from "@/lib/automations/waits/approvals";

export const POST = apiRoute<{ waitId: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  decideApproval(caller, params.waitId, await readJson(req)),
);
