import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

/**
 * The emergency brake of a shop (`lib/automations/brake/`): while its row exists every automation
 * the brake paused holds still — no schedule fires, no waiting run resumes — and releasing it
 * resumes exactly `automation_ids` (those active when it was pulled), not ones paused before.
 * One row per shop at most; deleted on release.
 */
export const automationBrakes = pgTable("automation_brakes", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  /** The automations the brake paused, the set released. */
  automationIds: uuid("automation_ids").array().notNull(),
  /** Who pulled it, as the audit log names them. */
  engagedBy: text("engaged_by").notNull(),
  engagedAt: timestamp("engaged_at", { withTimezone: true }).notNull().defaultNow(),
});
