import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/**
 * All seven domains live in one table. Why: the engine treats entities generically (load by
 * domain and id, read a field path, add a tag or a note, emit an event on a status change), so one
 * table means one loader, one tag/note mechanism and one set of indexes; the per-domain shape is
 * enforced by the zod schema of each domain in `lib/domains/domains.ts` at every boundary.
 * `status` and `email` are copied out of `data` so lists and audiences can filter on an index.
 */
export const entities = pgTable(
  "entities",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    id: text("id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    status: text("status"),
    email: text("email"),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the record's source (a connected store) last changed it, by the source's own clock
     * (`updated_at`): a delivery older than this changes nothing (lib/connections/process.ts).
     */
    sourceUpdatedAt: timestamp("source_updated_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.domain, t.id] }),
    index("entities_list_idx").on(t.tenantId, t.domain, t.updatedAt.desc(), t.id),
    index("entities_status_idx").on(t.tenantId, t.domain, t.status),
    index("entities_tags_idx").using("gin", t.tags),
    // A store's order finds its customer by email when the store names none of its own (a guest,
    // lib/connections/process.ts): one probe, not a scan of the shop's customers.
    index("entities_email_idx")
      .on(t.tenantId, t.domain, t.email)
      .where(sql`${t.email} is not null`),
    // Shopify's inventory levels name an inventory item: the product holding it among its variants
    // (lib/connections/process.ts applyInventory, whose query repeats this expression word for word).
    index("entities_inventory_items_idx")
      .using(
        "gin",
        sql`jsonb_path_query_array(${t.data} -> 'attributes' -> 'variants', '$[*].inventory_item_id') jsonb_path_ops`,
      )
      .where(sql`${t.domain} = 'product'`),
  ],
);

/** Notes on an entity, appended by staff, the API or automation actions. */
export const entityNotes = pgTable(
  "entity_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    domain: text("domain").notNull(),
    entityId: text("entity_id").notNull(),
    body: text("body").notNull(),
    author: text("author").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("entity_notes_entity_idx").on(t.tenantId, t.domain, t.entityId, t.createdAt)],
);

/**
 * Something that happened to the shop: `order.created`, `order.status_changed`, a webhook call...
 * The id is the caller's (for idempotent ingest) or generated; it is unique per tenant.
 */
export const events = pgTable(
  "events",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    type: text("type").notNull(),
    domain: text("domain").notNull(),
    entityId: text("entity_id"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("events_entity_idx").on(t.tenantId, t.domain, t.entityId, t.createdAt),
    index("events_recent_idx").on(t.tenantId, t.createdAt.desc()),
    // A wait for an event looks back for one of its type since its run began (engine/event-waits.ts).
    index("events_type_idx").on(t.tenantId, t.type, t.createdAt),
  ],
);

/**
 * A customer who opted out of marketing, and how (lib/customers/consent.ts). One row per customer
 * who ever unsubscribed; a re-subscribe keeps the row with `unsubscribed_at` cleared, so the record
 * page can still say when and why. Kept apart from the record's `data`, which a store's or the
 * API's next write of the customer replaces whole.
 */
export const customerConsent = pgTable(
  "customer_consent",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    /** When they unsubscribed; null once the merchant subscribed them again. */
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /** How: `link` (the email's unsubscribe link), `store` (a connected store said so), `merchant`. */
    unsubscribedVia: text("unsubscribed_via").$type<"link" | "store" | "merchant">(),
    /** Who subscribed them again and why (audited as `customer.resubscribed`). */
    resubscribedAt: timestamp("resubscribed_at", { withTimezone: true }),
    resubscribedBy: text("resubscribed_by"),
    resubscribeReason: text("resubscribe_reason"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.customerId] })],
);
