import { index, jsonb, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { credentials } from "./credentials";
import { tenants } from "./tenants";

/**
 * A store a shop connected (SPEC §2 "Store connections"): Shopify or WooCommerce posts its
 * webhooks to `/api/connect/<platform>/<token>`, signed with the secret kept as the credential.
 * The credential belongs to the connection (made and deleted with it); deleting it alone is
 * refused while the connection exists.
 */
export const storeConnections = pgTable(
  "store_connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    platform: text("platform").$type<"shopify" | "woocommerce">().notNull(),
    name: text("name").notNull(),
    /** The secret part of the connection's URL: a stranger without it reaches nothing. */
    token: text("token").notNull().unique(),
    credentialId: uuid("credential_id")
      .notNull()
      .references(() => credentials.id, { onDelete: "no action" }),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("store_connections_tenant_name_key").on(t.tenantId, t.name)],
);

export type DeliveryResult = "received" | "applied" | "duplicate" | "stale" | "refused";

/**
 * One webhook a connected store posted: recorded when it arrives (the platform is answered at
 * once), then processed by the worker (`connection_delivery`). `dedupe_key` is the platform's
 * delivery id, unique per connection; a repeat of a delivery is listed as its own row with
 * `result = 'duplicate'` and no key, so the list shows every call the store made.
 */
export const connectionDeliveries = pgTable(
  "connection_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => storeConnections.id, { onDelete: "cascade" }),
    topic: text("topic").notNull(),
    /** The platform's id of this delivery, as sent (shown to ops); null when it sent none. */
    deliveryId: text("delivery_id"),
    /** Unique per connection while set: the first of a delivery's copies holds it. */
    dedupeKey: text("dedupe_key"),
    body: jsonb("body").$type<unknown>(),
    result: text("result").$type<DeliveryResult>().notNull().default("received"),
    reason: text("reason"),
    domain: text("domain"),
    entityId: text("entity_id"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    unique("connection_deliveries_dedupe_key").on(t.connectionId, t.dedupeKey),
    // A connection's deliveries newest first, and its latest (lib/connections/store.ts): in the
    // order the queries read, `received_at desc, id desc` (drizzle's `.desc()` alone writes NULLS LAST).
    index("connection_deliveries_page_idx").on(
      t.tenantId,
      t.connectionId,
      t.receivedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);
