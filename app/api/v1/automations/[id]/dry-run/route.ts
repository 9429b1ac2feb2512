import { apiRoute, readOptionalJson } from "@/lib/api/route";
import { dryRun } from "@/lib/automations/dry-run/dry-run";

/**
 * POST /api/v1/automations/:id/dry-run — `{ entityId?, payload?, graph? }`: what the draft (or the
 * graph sent) would do, step by step, without doing it. It changes nothing, so viewers may run it,
 * except for a flow with a code step: its script runs, which needs the editor role.
 */
export const POST = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) =>
  dryRun(caller, params.id, await readOptionalJson(req)),
);
