import { apiRoute, readOptionalJson } from "@/lib/api/route";
import { settleHeldRuns } from "@/lib/automations/runs/held";

/** Discards the held runs a filter picks: an automation's, or by ids. */
export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) =>
  settleHeldRuns(caller, await readOptionalJson(req), "discard"),
);
