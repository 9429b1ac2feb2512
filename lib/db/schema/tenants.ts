import { sql } from "drizzle-orm";
import {
  check,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  jsonb,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./auth";
import type { MessagingSettings } from "@/lib/messaging/settings";

export const roleEnum = pgEnum("role", ["admin", "editor", "viewer"]);

/** One merchant's shop. Every merchant-owned row carries `tenant_id`. */
export const tenants = pgTable(
  "tenants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    timezone: text("timezone").notNull().default("UTC"),
    /**
     * The Standard Webhooks secret (`whsec_…`) every HTTP action request is signed with, sealed by
     * lib/credentials/secret-box (the shop's id as context). Null until first needed: sealing needs
     * the app's key, so a migration cannot fill it (lib/credentials/signing-secret.ts).
     */
    signingSecret: text("signing_secret"),
    /** When an admin last saw the secret in full (shown once, then only its last 4 characters). */
    signingSecretShownAt: timestamp("signing_secret_shown_at", { withTimezone: true }),
    /**
     * The shop's share of the workers when several shops have work queued (lib/queue/fair-share.ts):
     * a weight of 2 is served about twice as often as a weight of 1. Set by an operator
     * (`tillflow tenant set-weight`).
     */
    queueWeight: smallint("queue_weight").notNull().default(1),
    /**
     * Quiet hours and the shop's cap on marketing messages per customer (lib/messaging/settings.ts):
     * a part left out takes its default (21:00–08:00; 1 per 16 hours), `null` turns it off.
     */
    messaging: jsonb("messaging")
      .$type<Partial<MessagingSettings>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("tenants_queue_weight_range", sql`${t.queueWeight} between 1 and 100`)],
);

/** A user's role in a tenant. A user may belong to several shops. */
export const memberships = pgTable(
  "memberships",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: roleEnum("role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

/**
 * Tenant API keys for `/api/v1`. Only a SHA-256 of the key is stored (keys are 190 bits of random,
 * so a fast hash is safe and lets us look a key up by its hash); `prefix` is shown in the UI.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    role: roleEnum("role").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_tenant_idx").on(t.tenantId, t.createdAt)],
);

/**
 * An invitation to join a shop (lib/auth/invitations.ts). Staff are invited, never given a
 * password by someone else: the person opens `/invite/<token>` and either sets their own password
 * (a new email) or accepts while signed in as that email (an existing login). Only a SHA-256 of
 * the token is stored (base64url; the token is 256 bits of random, so a fast hash is safe), and a
 * row is used once: `accepted_at` or `revoked_at` ends it, as does `expires_at` (7 days).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: roleEnum("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("invitations_tenant_idx").on(t.tenantId, t.createdAt),
    // One open invitation per email and shop: a second is a re-send of the first.
    uniqueIndex("invitations_open_email_idx")
      .on(t.tenantId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);
