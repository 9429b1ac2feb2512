import { isIP } from "node:net";
import type { BetterAuthOptions } from "better-auth";
import { consume } from "@/lib/api/rate-limit";

/**
 * Sign-in throttling through better-auth's own `rateLimit` option, counted in Postgres
 * (`rate_limit_windows`) so every web process shares one count per client address.
 *
 * - `SIGN_IN_ATTEMPTS_PER_MINUTE` (default 10): sign-in attempts per client address per minute.
 * - `AUTH_RATE_LIMIT=off` turns better-auth's limiter off (it is on in every environment, not only
 *   in production as better-auth's default would have it).
 *
 * better-auth applies its limiter to requests through its HTTP handler (`/api/auth/sign-in/email`)
 * but not to server-side `auth.api` calls, which is how the sign-in form signs in; the form's action
 * asks `signInThrottle` first, which counts against the same key.
 */
const SIGN_IN_PATH = "/sign-in/email";
const WINDOW_SECONDS = 60;

function signInAttempts(): number {
  const value = Number(process.env.SIGN_IN_ATTEMPTS_PER_MINUTE);
  return process.env.SIGN_IN_ATTEMPTS_PER_MINUTE && Number.isFinite(value) ? Math.floor(value) : 10;
}

export function authRateLimit(): NonNullable<BetterAuthOptions["rateLimit"]> {
  return {
    enabled: process.env.AUTH_RATE_LIMIT !== "off",
    // Every other auth endpoint: generous, per client address and path.
    window: WINDOW_SECONDS,
    max: 300,
    customRules: { [SIGN_IN_PATH]: { window: WINDOW_SECONDS, max: signInAttempts() } },
    customStorage: {
      async consume(key, rule) {
        const decision = await consume(`auth:${key}`, { max: rule.max, windowSeconds: rule.window });
        return {
          allowed: decision.allowed,
          retryAfter: decision.allowed ? null : decision.retryAfterSeconds,
        };
      },
    },
  };
}

/** The client's address as better-auth reads it by default (a single `x-forwarded-for` entry). */
function clientAddress(headers: Headers): string {
  const forwarded =
    headers
      .get("x-forwarded-for")
      ?.split(",")
      .map((part) => part.trim()) ?? [];
  const address = forwarded.length === 1 ? forwarded[0]! : "";
  return isIP(address) ? address.toLowerCase() : "unknown";
}

/**
 * Counts a sign-in attempt from the form (a server action) against the same key better-auth uses
 * for its HTTP endpoint. Returns the seconds to wait when over the limit, else null.
 */
export async function signInThrottle(headers: Headers): Promise<number | null> {
  if (process.env.AUTH_RATE_LIMIT === "off") return null;
  const decision = await consume(`auth:${clientAddress(headers)}|${SIGN_IN_PATH}`, {
    max: signInAttempts(),
    windowSeconds: WINDOW_SECONDS,
  });
  return decision.allowed ? null : decision.retryAfterSeconds;
}
