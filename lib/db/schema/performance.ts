import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/*
 * Does it pay (issue 50, docs/performance-of-automations.md).
 *
 *   goal         the order event that counts as a conversion: `order_paid` (default) or `order_created`
 *   window       how long after a touch an order is still the touch's doing: 1–30 days (default 5)
 *   touch        a customer-facing step that delivered to a customer (`message`), or a held-out
 *                customer's run (`holdout`); an automation with a holdout also records each treated
 *                customer's entry (`entered`), which is never attributed an order
 *   attribution  a goal order given to its customer's latest `message` or `holdout` touch within
 *                the window, across all automations; at most one per order
 *
 * Attribution is done when the order's event is recorded, by the trigger `events_attribute_order`
 * (drizzle/…_order_attribution.sql), in the transaction that records it: two index probes, never a
 * scan at read time.
 */

/** A shop's goal and attribution window; a shop without a row has the defaults. */
export const attributionSettings = pgTable(
  "attribution_settings",
  {
    tenantId: uuid("tenant_id")
      .primaryKey()
      .references(() => tenants.id, { onDelete: "cascade" }),
    goal: text("goal").$type<AttributionGoal>().notNull().default("order_paid"),
    windowDays: smallint("window_days").notNull().default(5),
    /** The currency the report sums in (ISO 4217); null: the currency most attributed orders are in. */
    currency: text("currency"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("attribution_settings_window", sql`${t.windowDays} between 1 and 30`),
    check("attribution_settings_goal", sql`${t.goal} in ('order_paid', 'order_created')`),
  ],
);

export type AttributionGoal = "order_paid" | "order_created";
export type TouchKind = "message" | "holdout" | "entered";

/**
 * One touch (see the terminology above). `recipient` is the email (lower-case) or `c:<customer id>`,
 * so that a replayed step, which writes the same (run, node, leg, recipient), adds nothing. No
 * foreign key to the run: runs are partitioned and purged by month, touches outlive nothing they
 * need.
 */
export const automationTouches = pgTable(
  "automation_touches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    kind: text("kind").$type<TouchKind>().notNull(),
    customerId: text("customer_id"),
    /** Lower-case. */
    email: text("email"),
    recipient: text("recipient").notNull(),
    automationId: uuid("automation_id").notNull(),
    automationVersion: integer("automation_version").notNull(),
    runId: uuid("run_id").notNull(),
    /** The step that touched; the trigger's node for `holdout` and `entered`. */
    nodeId: text("node_id").notNull(),
    leg: integer("leg").notNull().default(1),
    /** The Split branch the run went down (its latest `auto.control.split` step), if any. */
    branch: text("branch"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("automation_touches_once_idx").on(t.runId, t.nodeId, t.leg, t.recipient),
    // The attribution's two probes: the customer's latest touch, else the email's.
    index("automation_touches_customer_idx")
      .on(t.tenantId, t.customerId, t.at.desc())
      .where(sql`${t.customerId} is not null and ${t.kind} <> 'entered'`),
    index("automation_touches_email_idx")
      .on(t.tenantId, t.email, t.at.desc())
      .where(sql`${t.email} is not null and ${t.kind} <> 'entered'`),
    // The report: an automation's touches in a period.
    index("automation_touches_automation_idx").on(t.tenantId, t.automationId, t.at),
    check("automation_touches_kind", sql`${t.kind} in ('message', 'holdout', 'entered')`),
  ],
);

/** An order attributed to a touch: at most one per shop and order. Money is `numeric`, never a float. */
export const orderAttributions = pgTable(
  "order_attributions",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    orderId: text("order_id").notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency"),
    customerId: text("customer_id"),
    email: text("email"),
    touchId: bigint("touch_id", { mode: "number" }).notNull(),
    touchKind: text("touch_kind").$type<Exclude<TouchKind, "entered">>().notNull(),
    /** The customer as the touch names them (`recipient`): holdout statistics count per customer. */
    recipient: text("recipient").notNull(),
    automationId: uuid("automation_id").notNull(),
    automationVersion: integer("automation_version").notNull(),
    runId: uuid("run_id").notNull(),
    nodeId: text("node_id").notNull(),
    branch: text("branch"),
    touchedAt: timestamp("touched_at", { withTimezone: true }).notNull(),
    /** When the goal event was recorded. */
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("order_attributions_order_idx").on(t.tenantId, t.orderId),
    index("order_attributions_automation_idx").on(t.tenantId, t.automationId, t.at),
  ],
);

/**
 * Attributed revenue per shop day, automation and currency (message touches only; holdouts are
 * not revenue): the dashboard's total and top earners read it instead of every attributed order.
 * Kept by the statement trigger `order_attributions_rollup` in the statement that attributes the
 * order (drizzle/0036_reach_rollups.sql; 0035's row trigger before), exact (`numeric`); its day is
 * the shop's day when the order was recorded. `currency` is '' for orders without one.
 */
export const automationRevenueDays = pgTable(
  "automation_revenue_days",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    automationId: uuid("automation_id").notNull(),
    currency: text("currency").notNull().default(""),
    conversions: integer("conversions").notNull().default(0),
    revenue: numeric("revenue").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.automationId, t.currency] })],
);

/**
 * Touches and attributed orders per shop day, automation, version, step, branch and currency: the
 * Performance tab's counts that add up (touches; message conversions and revenue, exact
 * `numeric`). `branch` is '' without a split, `currency` '' for touches and for orders without
 * one. Kept by the statement triggers `automation_touches_rollup` and `order_attributions_rollup`
 * (drizzle/0036_reach_rollups.sql) in the statement that writes the touch or the attribution; the
 * day is the shop's day then.
 */
export const automationStepDays = pgTable(
  "automation_step_days",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    automationId: uuid("automation_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    version: integer("version").notNull(),
    nodeId: text("node_id").notNull(),
    branch: text("branch").notNull().default(""),
    currency: text("currency").notNull().default(""),
    touches: integer("touches").notNull().default(0),
    conversions: integer("conversions").notNull().default(0),
    revenue: numeric("revenue").notNull().default("0"),
  },
  (t) => [
    primaryKey({
      name: "automation_step_days_pk",
      columns: [t.tenantId, t.automationId, t.day, t.version, t.nodeId, t.branch, t.currency],
    }),
  ],
);

/**
 * Distinct customers reached, exact over any period, without reading a row per customer (docs/
 * performance-of-automations.md, "Customers reached"). A *scope* is what a customer is counted in:
 * `all` (any message of the automation), `step` (key: the node), `branch` (key: the Split branch)
 * or `entry` (key: `treated` or `held_out`), each for one version and for version 0 (any version).
 *
 * `automation_reach_members` holds, per scope and customer, the shop days they were reached (sorted,
 * the last 400 days); `automation_reach_days` counts customer-days by day and *gap*: the days since
 * the same customer was last reached in the same scope (367: not in the year before). A customer
 * reached in the period from `f` is counted once, on their first day in it — the one day whose gap
 * reaches back before `f` — so "customers reached from f to t" is `sum(customers) where day between
 * f and t and gap > day - f`: a range of the rollup, at most days × gaps rows per scope.
 */
export const automationReachMembers = pgTable(
  "automation_reach_members",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    automationId: uuid("automation_id").notNull(),
    version: integer("version").notNull(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    recipient: text("recipient").notNull(),
    days: date("days", { mode: "string" }).array().notNull(),
  },
  (t) => [
    primaryKey({
      name: "automation_reach_members_pk",
      columns: [t.tenantId, t.automationId, t.version, t.scope, t.key, t.recipient],
    }),
  ],
);

export const automationReachDays = pgTable(
  "automation_reach_days",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    automationId: uuid("automation_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    version: integer("version").notNull(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    gap: smallint("gap").notNull(),
    customers: integer("customers").notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: "automation_reach_days_pk",
      columns: [t.tenantId, t.automationId, t.day, t.version, t.scope, t.key, t.gap],
    }),
  ],
);
