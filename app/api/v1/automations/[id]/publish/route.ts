import { apiRoute, readOptionalJson } from "@/lib/api/route";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  publishAutomation(caller, params.id, await readOptionalJson(req)),
);
