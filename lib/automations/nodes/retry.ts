import { z } from "zod";
import { integer, paramsObject } from "./params";

/**
 * Retries of an action that failed for a reason that may pass (SPEC §2 "Retries"): an HTTP 408,
 * 429 or 5xx answer, or no answer at all. Browser-safe: the config panel describes the schedule
 * with the same function the engine computes it with.
 */

const BACKOFFS = ["exponential", "fixed"] as const;

/** 3 attempts, 30 s then 1 min between them. `attempts: 1` turns retries off. */
export const DEFAULT_RETRY = { attempts: 3, backoff: "exponential", initialSeconds: 30 } as const satisfies {
  attempts: number;
  backoff: (typeof BACKOFFS)[number];
  initialSeconds: number;
};

/** Each setting left out takes SPEC's default: `{ attempts: 1 }` alone turns retries off. */
export const retryParams = paramsObject({
  attempts: integer(1, 10).default(DEFAULT_RETRY.attempts),
  backoff: z.enum(BACKOFFS, { error: "must be 'exponential' or 'fixed'" }).default(DEFAULT_RETRY.backoff),
  initialSeconds: integer(1, 3600).default(DEFAULT_RETRY.initialSeconds),
});
export type RetryParams = z.infer<typeof retryParams>;
/** No pause between attempts is longer than an hour. */
export const MAX_BACKOFF_MS = 3_600_000;

/**
 * How long to wait after failed attempt `attempt` (1-based) before the next: `initialSeconds`, or
 * doubling from it; a `Retry-After` the receiver sent wins; capped at an hour. `jitter` (0..1)
 * spreads retries of many runs by up to 10 %.
 */
export function backoffMs(retry: RetryParams, attempt: number, retryAfterMs?: number, jitter = 0): number {
  const base =
    retry.backoff === "fixed"
      ? retry.initialSeconds * 1000
      : retry.initialSeconds * 1000 * 2 ** (attempt - 1);
  const wanted = retryAfterMs ?? base * (1 + 0.1 * jitter);
  return Math.round(Math.min(Math.max(wanted, 0), MAX_BACKOFF_MS));
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** "On failure: retry 2 times, waiting 30 s, then 1 min." · "On failure: no retries." */
export function describeRetry(retry: RetryParams): string {
  const retries = retry.attempts - 1;
  if (retries === 0) return "On failure: no retries.";
  const waits = Array.from({ length: retries }, (_, i) => seconds(backoffMs(retry, i + 1)));
  return `On failure: retry ${retries} time${retries === 1 ? "" : "s"}, waiting ${waits[0]}${waits.length > 1 ? `, then ${waits.slice(1).join(", ")}` : ""}.`;
}
