import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/*
 * Issue 51, items 3–4 (lib/messaging/): the marketing messages sent to each customer, which the
 * shop's cap counts, and the messages deferred by quiet hours or that cap.
 */

/**
 * One row per marketing message sent to a customer, written in the transaction that sends it. The
 * shop's cap reads a customer's newest rows through `customer_message_sends_recent_idx` (one
 * index probe, however many customers and sends: bench -- customers).
 */
export const customerMessageSends = pgTable(
  "customer_message_sends",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    automationId: uuid("automation_id").notNull(),
    runId: uuid("run_id").notNull(),
    nodeId: text("node_id").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("customer_message_sends_recent_idx").on(t.tenantId, t.customerId, t.sentAt.desc())],
);

export type DeferralKind = "quiet" | "cap" | "yield";
export type DeferralStatus = "waiting" | "sent" | "skipped" | "expired";

/**
 * A marketing message that did not go when it fell due: one row per (run, step), `waiting` while
 * its timed wait (kind `deferred`, the same wait table and jobs as every wait) is pending or its
 * resumed leg is deciding again. Deferred messages of one customer compete by `priority`, then
 * `deferred_at`; `path` keeps the conditions its walk passed, checked again when it goes.
 */
export const messageDeferrals = pgTable(
  "message_deferrals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    automationId: uuid("automation_id").notNull(),
    runId: uuid("run_id").notNull(),
    nodeId: text("node_id").notNull(),
    /** The automation's priority when first deferred: 3 high, 2 normal, 1 low. */
    priority: smallint("priority").notNull(),
    /** When first deferred: ties between equal priorities go to the older, and expiry counts from it. */
    deferredAt: timestamp("deferred_at", { withTimezone: true }).notNull().defaultNow(),
    /** When its wait is due now (moved on each deferral). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    kind: text("kind").$type<DeferralKind>().notNull(),
    status: text("status").$type<DeferralStatus>().notNull().default("waiting"),
    /** The conditions its walk passed, each with the result it had: `[{ nodeId, result }]`. */
    path: jsonb("path")
      .$type<{ nodeId: string; result: boolean }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    reason: text("reason"),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("message_deferrals_step_unique").on(t.runId, t.nodeId),
    index("message_deferrals_customer_idx")
      .on(t.tenantId, t.customerId, t.dueAt)
      .where(sql`${t.status} = 'waiting'`),
    index("message_deferrals_automation_idx").on(t.tenantId, t.automationId, t.deferredAt),
  ],
);
