import { apiRoute, json, readOptionalJson } from "@/lib/api/route";
import { rerunRuns } from "@/lib/automations/runs/rerun";

/** Re-runs the failed, partial or cancelled runs a filter or a list of ids picks (at most 500). */
export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) =>
  json(await rerunRuns(caller, await readOptionalJson(req)), 201),
);
