import { apiRoute, readJson } from "@/lib/api/route";
import { buildFlow } from "@/lib/automations/ai/build";
import { buildInput } from "@/lib/automations/ai/input";
import { parseOrThrow } from "@/lib/errors";

/**
 * `{ prompt }` → `{ graph, readyIssues, notes }`: the AI builder's draft flow, not saved (create it
 * with `POST /api/v1/automations`). 429 with Retry-After past the shop's hourly budget of model
 * calls (`AI_CALLS_PER_SHOP_PER_HOUR`, each request up to 2). 503 when no model is set up or the provider rate limits, 502
 * when it fails, 504 when it does not answer in time.
 */
export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) => {
  const { prompt } = parseOrThrow(buildInput, await readJson(req), "The request is invalid");
  const { graph, readyIssues, notes, name } = await buildFlow(prompt, {
    tenantId: caller.tenant.id,
    timeZone: caller.tenant.timezone,
  });
  return { name, graph, readyIssues, notes };
});
