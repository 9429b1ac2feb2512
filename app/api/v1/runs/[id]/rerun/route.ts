import { apiRoute, json, readOptionalJson } from "@/lib/api/route";
import { rerunRun } from "@/lib/automations/runs/rerun";

/** Re-runs a failed, partial or cancelled run as a new run linked by `rerunOf` (201). */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  json(await rerunRun(caller, params.id, await readOptionalJson(req)), 201),
);
