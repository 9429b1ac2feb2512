import { apiRoute, json, readJson, searchParams } from "@/lib/api/route";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { listAutomations } from "@/lib/automations/lifecycle/list";

export const GET = apiRoute({ role: "viewer" }, async ({ req, caller }) =>
  listAutomations(caller.tenant.id, searchParams(req)),
);

export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) =>
  json(await createAutomation(caller, await readJson(req)), 201),
);
