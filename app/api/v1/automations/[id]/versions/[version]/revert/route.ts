import { apiRoute, readOptionalJson } from "@/lib/api/route";
import { revertToVersion } from "@/lib/automations/lifecycle/versions";

export const POST = apiRoute<{ id: string; version: string }>(
  { role: "editor" },
  async ({ req, params, caller }) =>
    revertToVersion(caller, params.id, params.version, await readOptionalJson(req)),
);
