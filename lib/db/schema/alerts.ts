import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { automations } from "./automations";
import { tenants } from "./tenants";

/** What an alert rule watches (lib/alerts/kinds.ts says each in merchant words). */
export type AlertKind = "failed_runs" | "silence" | "storm" | "overdue_waits" | "approval_overdue";

/**
 * Where a rule's alerts go, as stored. A webhook's secret is sealed (lib/credentials/secret-box.ts,
 * the shop's id as associated data) and never leaves the server; a Slack channel names a
 * `slack_webhook` credential, whose URL is read at the moment of sending.
 */
export type StoredAlertChannel =
  | { type: "email" }
  | { type: "slack"; credentialId: string; channel?: string }
  | { type: "webhook"; url: string; sealedSecret: string };

/** A rule's settings; each kind reads its own (lib/alerts/kinds.ts has the defaults). */
export interface AlertParams {
  /** silence: hours without a run. */
  hours?: number;
  /** overdue_waits: minutes past due. */
  minutes?: number;
  /** storm: runs in an hour that count as a storm whatever the usual rate. */
  maxRunsPerHour?: number;
}

/** A shop's alert rule (Settings → Alerts): what to watch, about which automation, and where to send. */
export const alertRules = pgTable(
  "alert_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    kind: text("kind").$type<AlertKind>().notNull(),
    /** Null: every automation of the shop. */
    automationId: uuid("automation_id").references(() => automations.id, { onDelete: "cascade" }),
    channel: jsonb("channel").$type<StoredAlertChannel>().notNull(),
    params: jsonb("params").$type<AlertParams>().notNull().default({}),
    enabled: boolean("enabled").notNull().default(true),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("alert_rules_tenant_idx").on(t.tenantId, t.createdAt, t.id),
    // The evaluator reads the enabled rules of each kind, across every shop, every minute.
    index("alert_rules_enabled_idx")
      .on(t.kind, t.tenantId)
      .where(sql`${t.enabled}`),
  ],
);

/**
 * Every alert made, sent or not: one row per rule, automation and window (`dedupe_key` is
 * unique), so two evaluations of the same minute make one alert and `alert_send` sends it once.
 */
export const alertHistory = pgTable(
  "alert_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The rule that made it; kept (null) when the rule is deleted, so history stays. */
    ruleId: uuid("rule_id").references(() => alertRules.id, { onDelete: "set null" }),
    automationId: uuid("automation_id"),
    automationName: text("automation_name").notNull(),
    kind: text("kind").$type<AlertKind>().notNull(),
    message: text("message").notNull(),
    count: integer("count").notNull(),
    runsUrl: text("runs_url").notNull(),
    /** The channel's type: email, slack or webhook. */
    channel: text("channel").notNull(),
    dedupeKey: text("dedupe_key").notNull().unique("alert_history_dedupe_key_unique"),
    /** The failed runs' digest: the latest finish it counted, where the next one starts. */
    windowEnd: timestamp("window_end", { withTimezone: true }),
    status: text("status").$type<"pending" | "sent" | "failed">().notNull().default("pending"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("alert_history_tenant_idx").on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    // The evaluator's "when did this rule last alert about this automation".
    index("alert_history_rule_idx").on(t.ruleId, t.automationId, t.createdAt.desc()),
  ],
);

/**
 * An automation's usual rate, for silence and storm: runs in the last 7 days and the 95th
 * percentile of its hourly counts. Refreshed a slice at a time by the evaluator (lib/alerts/baselines.ts),
 * so no tick reads a week of every automation's runs.
 */
export const alertBaselines = pgTable(
  "alert_baselines",
  {
    automationId: uuid("automation_id")
      .primaryKey()
      .references(() => automations.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id").notNull(),
    runs7d: integer("runs_7d").notNull(),
    hourlyP95: real("hourly_p95").notNull(),
    computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("alert_baselines_computed_idx").on(t.computedAt)],
);
