import { trustedOrigins } from "@/lib/auth/auth";
import type { Caller } from "@/lib/identity/caller";
import { forbidden } from "@/lib/errors";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A write to `/api/v1` authenticated by the session cookie must say it comes from the app's own
 * pages (SPEC §2 "Trust at the edges"): a browser sends the cookie with a form or fetch from any
 * site, but it always sends that site's `Origin` with a cross-site write and never lets a page
 * forge it. So the `Origin` must be the request's own origin — the scheme and `Host` it was sent
 * to — or one of the app's configured origins (better-auth's `trustedOrigins`: BETTER_AUTH_URL).
 * An API key is not sent by a browser on its own, so its requests need no `Origin`.
 */
export function assertSameOriginWrite(req: Request, caller: Caller): void {
  if (caller.actor.kind !== "user" || !WRITES.has(req.method)) return;
  const origin = req.headers.get("origin");
  if (origin && allowedOrigins(req).has(origin.toLowerCase())) return;
  throw forbidden(
    "A change made with a signed-in browser session must come from Tillflow's own pages (the request's Origin header is missing or names another site). Scripts should use an API key.",
  );
}

function allowedOrigins(req: Request): Set<string> {
  const allowed = new Set(trustedOrigins().map((origin) => origin.toLowerCase()));
  const host = req.headers.get("host");
  if (host) allowed.add(`${new URL(req.url).protocol}//${host}`.toLowerCase());
  return allowed;
}
