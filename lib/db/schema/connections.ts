import { index, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
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
    /**
     * Issue 52: the credential that writes back to the store (`shopify_admin`: the Admin API
     * token, its host the shop's `*.myshopify.com`; `woocommerce_rest`: the REST API key), made
     * and deleted with the connection. Null: the store only posts to Tillflow.
     */
    adminCredentialId: uuid("admin_credential_id").references(() => credentials.id, {
      onDelete: "set null",
    }),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("store_connections_tenant_name_key").on(t.tenantId, t.name)],
);

export type DeliveryResult = "received" | "applied" | "duplicate" | "stale" | "refused";

/**
 * One webhook a connected store posted: recorded when it arrives (the platform is answered at
 * once), then processed by the worker (`connection_delivery`). `dedupe_key` is the platform's
 * delivery id, unique per connection; the copies of a delivery are listed as one row of their own,
 * `result = 'duplicate'`, keyed `copy:<hash of topic and body>` and updated by each later copy, so
 * the list shows that the store sent it again without a row per call (issue 47). `body_hash` is
 * the SHA-256 of the signed body: the delivery id is an unsigned header, so a captured body posted
 * again under a new id is a copy too (issue 47) — unique per connection and topic, while set.
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
    /** Hex SHA-256 of the raw signed body; set on a delivery's first row, null on copies and pings. */
    bodyHash: text("body_hash"),
    result: text("result").$type<DeliveryResult>().notNull().default("received"),
    reason: text("reason"),
    domain: text("domain"),
    entityId: text("entity_id"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    unique("connection_deliveries_dedupe_key").on(t.connectionId, t.dedupeKey),
    // A signed body is taken once per topic (lib/connections/receive.ts): the same bytes under
    // another delivery id are a copy. Under another topic they are read again, and the record's
    // clock (`source_updated_at`) or the topic's resource check decides (issue 47).
    unique("connection_deliveries_body_key").on(t.connectionId, t.topic, t.bodyHash),
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

/**
 * The clock of a Shopify inventory level (an item at a location), by the level's own `updated_at`
 * (lib/connections/process.ts applyInventory): a level older than the last one applied changes
 * nothing. A level is not a record of its own — it sets a stored product's variant — so its clock is
 * kept here, beside the product's (`entities.source_updated_at`), which it does not move.
 */
export const inventoryLevelClocks = pgTable(
  "inventory_level_clocks",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    inventoryItemId: text("inventory_item_id").notNull(),
    /** The level's location; empty when the body names none. */
    locationId: text("location_id").notNull(),
    sourceUpdatedAt: timestamp("source_updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.inventoryItemId, t.locationId] })],
);
