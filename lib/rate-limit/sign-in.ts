import type { BetterAuthOptions } from "better-auth";
import { consume } from "@/lib/rate-limit";
import { CLIENT_ADDRESS_HEADER } from "@/lib/net/client-address";
import { config } from "@/lib/config/config";

/**
 * better-auth's own limiter for its HTTP endpoints, counted in Postgres (`rate_limit_windows`) so
 * every web process shares one count: a generous 300 requests a minute per client address and
 * path. Sign-in is limited by lib/auth/sign-in-limits.ts instead (per address and per account,
 * for the form and the HTTP endpoint alike), so better-auth's own sign-in rule is off.
 *
 * The client's address is the one the production server resolved (`CLIENT_ADDRESS_HEADER`, from
 * the socket and `TRUSTED_PROXIES`: lib/net/client-address.ts), never a raw `X-Forwarded-For`.
 * `AUTH_RATE_LIMIT=off` turns the limiter off (it is on in every environment, not only in
 * production as better-auth's default would have it).
 */
const WINDOW_SECONDS = 60;

export function authRateLimit(): NonNullable<BetterAuthOptions["rateLimit"]> {
  return {
    enabled: config().AUTH_RATE_LIMIT,
    window: WINDOW_SECONDS,
    max: 300,
    customRules: { "/sign-in/email": false },
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

/** Where better-auth reads the client's address from. */
export const authIpAddress = { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] };
