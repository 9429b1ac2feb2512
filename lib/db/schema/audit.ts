import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/**
 * Who did what, when: one row per decision a person or an API key takes that matters later
 * (an approval decided, …). Written in the same transaction as the change it records.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** `approval.decided`, … */
    action: text("action").notNull(),
    /** Who: a user's email or "API key tf_ab…". */
    actor: text("actor").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_events_tenant_idx").on(t.tenantId, t.createdAt.desc(), t.id.desc())],
);
