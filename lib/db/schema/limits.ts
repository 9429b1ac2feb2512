import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Fixed-window request counters shared by every web process (lib/rate-limit.ts): one row per
 * limited key (`ingest:<apiKeyId>`, `write:<apiKeyId>`, `sign-in-address:<ip>`), reused window
 * after window, so the table never grows past the number of keys. `sign-in-account:<email>` rows
 * count an account's failed sign-ins instead: `hits` in the streak, `window_start` the last one
 * (lib/auth/sign-in-limits.ts). The migration creates it UNLOGGED:
 * a counter lost in a crash costs nothing, and its commits then wait for no WAL flush.
 */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

/**
 * Inbound webhook signatures already accepted, kept until they fall out of the replay window
 * (lib/automations/webhooks/signature.ts): a second delivery with the same signature is refused.
 * Rows past `expires_at` are pruned as new ones arrive.
 */
export const webhookSignatures = pgTable(
  "webhook_signatures",
  {
    /** The hook token and the signature's `v1` (a hex HMAC), joined by ':'. */
    signature: text("signature").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webhook_signatures_expires_idx").on(t.expiresAt)],
);
