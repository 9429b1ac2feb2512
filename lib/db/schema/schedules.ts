import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { Audience } from "@/lib/automations/nodes/triggers/triggers";
import { automations } from "./automations";

/**
 * One row per schedule trigger node of an active automation: when it fires next. Kept by
 * publish, activate, pause and revert (`schedules/sync.ts`); a paused automation has none.
 * The heartbeat reads only rows whose `next_fire_at` has come (partial index), so a tick costs
 * O(due schedules), not O(automations).
 */
export const automationSchedules = pgTable(
  "automation_schedules",
  {
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    tenantId: uuid("tenant_id").notNull(),
    cron: text("cron").notNull(),
    timezone: text("timezone").notNull(),
    nextFireAt: timestamp("next_fire_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.automationId, t.nodeId] }),
    index("automation_schedules_due_idx")
      .on(t.nextFireAt)
      .where(sql`${t.nextFireAt} is not null`),
  ],
);

export type FireKind = "scheduled" | "manual";
/** `pending`: claimed, runs being created · `done` · `missed`: skipped, never ran · `cancelled`: switched off mid-way. */
export type FireStatus = "pending" | "done" | "missed" | "cancelled";

/**
 * One fire of a schedule: the claim that makes a fire time happen at most once (unique per
 * automation, node and fire time), and the fan-out's progress (a keyset cursor over customers),
 * so a fan-out cut short resumes where it stopped. Missed fire times are recorded too.
 */
export const scheduleFires = pgTable(
  "schedule_fires",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    /** The fire time (the schedule's instant, not when the tick noticed it); now for a manual run. */
    fireAt: timestamp("fire_at", { withTimezone: true }).notNull(),
    kind: text("kind").$type<FireKind>().notNull(),
    status: text("status").$type<FireStatus>().notNull(),
    /** The version and audience the fire's runs use, fixed when it was claimed. */
    automationVersion: integer("automation_version").notNull(),
    audience: jsonb("audience").$type<Audience>(),
    /** The last customer id a fan-out batch created runs for (keyset). */
    cursor: text("cursor"),
    runsCreated: integer("runs_created").notNull().default(0),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    unique("schedule_fires_once").on(t.automationId, t.nodeId, t.fireAt),
    index("schedule_fires_list_idx").on(t.tenantId, t.automationId, t.fireAt.desc()),
    // The heartbeat's watchdog looks for pending fires only; done and missed ones pile up.
    index("schedule_fires_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
