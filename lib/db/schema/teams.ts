import { sql } from "drizzle-orm";
import {
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { automationRunWaits } from "./automations";
import { memberships, tenants } from "./tenants";

/**
 * Teams of a shop's staff (Finance, Warehouse): a name and members among the shop's members
 * (issue 53). An Approval step may ask `{ team, required }` of one; removing a member takes their
 * unused vote away at once (lib/teams/teams.ts re-checks the quorum of undecided approvals).
 */
export const teams = pgTable(
  "teams",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("teams_tenant_name_idx").on(t.tenantId, sql`lower(${t.name})`)],
);

/** A team's members: each a member of the team's shop (leaving the shop leaves its teams). */
export const teamMembers = pgTable(
  "team_members",
  {
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    index("team_members_user_idx").on(t.tenantId, t.userId),
    foreignKey({
      name: "team_members_membership_fk",
      columns: [t.tenantId, t.userId],
      foreignColumns: [memberships.tenantId, memberships.userId],
    }).onDelete("cascade"),
  ],
);

/**
 * One vote on an approval (issue 53): one row per person (`voter`: `user:<id>`, or `key:<id>` for
 * an API key no person made), whichever channel it came by — the unique index is the dedupe.
 * `rules` are the indexes of the step's approver rules the voter could count for when voting.
 */
export const approvalVotes = pgTable(
  "approval_votes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    waitId: uuid("wait_id")
      .notNull()
      .references(() => automationRunWaits.id, { onDelete: "cascade" }),
    voter: text("voter").notNull(),
    /** As the audit log names the voter (an email, or "API key tf_ab…"). */
    voterLabel: text("voter_label").notNull(),
    decision: text("decision").$type<"approved" | "rejected">().notNull(),
    note: text("note"),
    rules: jsonb("rules").$type<number[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("approval_votes_wait_voter_idx").on(t.waitId, t.voter)],
);
