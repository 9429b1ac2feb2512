import "server-only";
import { spendOrRefuse } from "@/lib/rate-limit/api";
import { config } from "@/lib/config/config";

/**
 * The per-shop hourly budget of model calls made while someone is building (issue 47): the AI
 * builder (each request asks up to twice: a second time when the first answer is not a valid
 * flow) and the AI step's "Try with the model". Calls are counted, not requests: each is counted
 * just before it is made, so a builder request whose first answer was good spends one.
 *
 * Counted in Postgres (`rate_limit_windows`, `lib/rate-limit.ts`: one row per shop, reused by the
 * next hour), so every web server shares one count. Published flows' AI steps, run by the worker,
 * have an allowance of their own (`AI_CALLS_PER_HOUR`, `takeAiCall` in ai.execute.ts): a merchant
 * trying prompts in the editor never makes their live flows fail, and a busy shop's flows never
 * lock the builder.
 */

export const AI_BUDGET_WINDOW_SECONDS = 3600;

/** `AI_CALLS_PER_SHOP_PER_HOUR`: calls per shop per hour, default 200; 0 turns the budget off. */
export function aiCallsPerShopPerHour(): number {
  return config().AI_CALLS_PER_SHOP_PER_HOUR;
}

/**
 * Counts one model call against the shop's budget, or throws a 429 (`RateLimitedError`, whose
 * `Retry-After` the API sets) saying when the budget renews: at the top of the next hour, UTC.
 */
export async function spendAiCall(tenantId: string, now = Date.now()): Promise<void> {
  const max = aiCallsPerShopPerHour();
  await spendOrRefuse(
    `ai-build:${tenantId}`,
    { max, windowSeconds: AI_BUDGET_WINDOW_SECONDS },
    (minutes, renewsAt) =>
      `This shop has used all ${max.toLocaleString("en-US")} of its AI questions for this hour, so the model was not asked; the AI builder and Try with the model can ask again in ${minutes} minute${minutes === 1 ? "" : "s"} (at ${renewsAt.toISOString().slice(11, 16)} UTC).`,
    now,
  );
}
