import { AppError } from "@/lib/errors";
import { consume, Counter, type RateRule } from "@/lib/rate-limit";
import { config } from "@/lib/config/config";

/** The API's per-key limits on the shared counter of `lib/rate-limit.ts`. */

/** 429 with `Retry-After` (seconds); `errorResponse` sets the header. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "rate_limited", message);
  }
}

/**
 * Counts one use of `key` against `rule`, or throws a 429 (`RateLimitedError`) in the words
 * `refusal` writes from when the window renews: in `minutes` (at least 1), at `renewsAt`.
 */
export async function spendOrRefuse(
  key: string,
  rule: RateRule,
  refusal: (minutes: number, renewsAt: Date) => string,
  now = Date.now(),
): Promise<void> {
  const decision = await consume(key, rule, now);
  if (decision.allowed) return;
  const minutes = Math.max(1, Math.ceil(decision.retryAfterSeconds / 60));
  const renewsAt = new Date(now + decision.retryAfterSeconds * 1000);
  throw new RateLimitedError(refusal(minutes, renewsAt), decision.retryAfterSeconds);
}

/**
 * Per API key, per minute. Defaults are far above what `npm run bench -- live` sends (about 660
 * single events and 5 arrays a second), so only a runaway client meets them.
 * - `API_INGEST_RATE_LIMIT_PER_MINUTE` (default 120,000): `POST /api/v1/events` requests, an array counting once.
 * - `API_RATE_LIMIT_PER_MINUTE` (default 12,000): every other write (PUT, PATCH, POST, DELETE).
 * Reads are not limited. 0 turns a limit off.
 */
export function apiRules(): Record<"ingest" | "write", RateRule> {
  return {
    ingest: { max: config().API_INGEST_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
    write: { max: config().API_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
  };
}

const holder = globalThis as unknown as { __tillflowApiCounter?: Counter };

/** Throws a 429 when an API key has used up its requests of this kind for the minute. */
export async function limitApiKey(apiKeyId: string, kind: "ingest" | "write"): Promise<void> {
  const rule = apiRules()[kind];
  const counter = (holder.__tillflowApiCounter ??= new Counter());
  const decision = await counter.take(`${kind}:${apiKeyId}`, rule);
  if (decision.allowed) return;
  const what = kind === "ingest" ? "event requests" : "write requests";
  throw new RateLimitedError(
    `This API key has sent more than ${rule.max.toLocaleString("en-US")} ${what} this minute. Try again in ${decision.retryAfterSeconds} s.`,
    decision.retryAfterSeconds,
  );
}
