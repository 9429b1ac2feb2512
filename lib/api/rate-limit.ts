import { sql } from "drizzle-orm";
import { executePrepared } from "@/lib/db/prepared";
import { AppError } from "@/lib/errors";

/**
 * Request limits shared by every web process: a fixed window per key, counted in Postgres with one
 * prepared upsert per request (`rate_limit_windows`, an UNLOGGED table, so the commit waits for no
 * WAL flush). The web app keeps no state of its own, so two servers behind a balancer share one
 * count. A window's row is reused by the next window: the table holds one row per key.
 *
 * Terminology: a *rule* is a number of requests per window; a *key* names who is counted and for
 * what (`ingest:<apiKeyId>`); a *window* is the rule's period, aligned to the epoch.
 */
export interface RateRule {
  /** Requests allowed per window; 0 or less turns the limit off. */
  max: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests counted in this window so far, this one included. */
  hits: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/** 429 with `Retry-After` (seconds); `errorResponse` sets the header. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "rate_limited", message);
  }
}

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && process.env[name] !== "" && Number.isFinite(value)
    ? Math.floor(value)
    : fallback;
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
    ingest: { max: envInt("API_INGEST_RATE_LIMIT_PER_MINUTE", 120_000), windowSeconds: 60 },
    write: { max: envInt("API_RATE_LIMIT_PER_MINUTE", 12_000), windowSeconds: 60 },
  };
}

/** Counts one request against `key` and says whether it is within `rule`. */
export async function consume(key: string, rule: RateRule): Promise<RateDecision> {
  if (rule.max <= 0) return { allowed: true, hits: 0, retryAfterSeconds: 0 };
  const window = rule.windowSeconds;
  const [row] = await executePrepared<{ hits: number; retry_after: number }>(sql`
    insert into rate_limit_windows as w (key, window_start, hits)
    values (${key}, to_timestamp(floor(extract(epoch from now()) / ${window}::int) * ${window}::int), 1)
    on conflict (key) do update set
      hits = case when w.window_start = excluded.window_start then w.hits + 1 else 1 end,
      window_start = excluded.window_start
    returning w.hits,
      ceil(extract(epoch from w.window_start) + ${window}::int - extract(epoch from now()))::int as retry_after`);
  const hits = Number(row!.hits);
  return { allowed: hits <= rule.max, hits, retryAfterSeconds: Math.max(1, Number(row!.retry_after)) };
}

/** Throws a 429 when an API key has used up its requests of this kind for the minute. */
export async function limitApiKey(apiKeyId: string, kind: "ingest" | "write"): Promise<void> {
  const rule = apiRules()[kind];
  const decision = await consume(`${kind}:${apiKeyId}`, rule);
  if (decision.allowed) return;
  const what = kind === "ingest" ? "event requests" : "write requests";
  throw new RateLimitedError(
    `This API key has sent more than ${rule.max.toLocaleString("en-US")} ${what} this minute. Try again in ${decision.retryAfterSeconds} s.`,
    decision.retryAfterSeconds,
  );
}
