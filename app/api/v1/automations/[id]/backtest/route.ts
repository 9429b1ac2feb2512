import { apiRoute, readOptionalJson } from "@/lib/api/route";
import { backtest } from "@/lib/automations/backtest/backtest";

/**
 * POST /api/v1/automations/:id/backtest — `{ graph?, limit? }`: the automation's latest real runs
 * (50 by default, at most 500) replayed through the draft, or the graph sent, with no effects:
 * how many reached each step then and would now, and the runs whose path changed. Editors: a
 * draft's code step runs its script on the shop's records.
 */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  backtest(caller, params.id, await readOptionalJson(req)),
);
