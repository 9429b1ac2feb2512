import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { Graph } from "@/lib/automations/graph/schema";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import { users } from "./auth";
import { tenants } from "./tenants";
import type { Priority } from "@/lib/messaging/settings";

export const automationStatusEnum = pgEnum("automation_status", ["draft", "active", "paused", "archived"]);
export const inFlightPolicyEnum = pgEnum("in_flight_policy", [
  "cancel",
  "finish_on_started_version",
  "move_to_latest",
]);

/**
 * A named flow: the draft being edited and the active graph published as `version`.
 * `version` 0 means never published. `trigger_events` lists the event types the active graph
 * listens to, so matching an event to automations is one indexed lookup.
 */
export const automations = pgTable(
  "automations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    status: automationStatusEnum("status").notNull().default("draft"),
    version: integer("version").notNull().default(0),
    draftGraph: jsonb("draft_graph").$type<Graph>().notNull(),
    /** Bumped by every draft save; the editor sends the revision it started from to detect a second tab. */
    draftRevision: integer("draft_revision").notNull().default(1),
    activeGraph: jsonb("active_graph").$type<Graph>(),
    inFlightPolicy: inFlightPolicyEnum("in_flight_policy").notNull().default("cancel"),
    triggerEvents: text("trigger_events")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    /**
     * Limits on how many runs start (lib/automations/caps/): a run over one is `held` for a person
     * to release or discard. Changed at once, without a new version; null when there are none.
     */
    caps: jsonb("caps").$type<AutomationCaps>(),
    /**
     * Bumped by every change of `caps`: it is part of the listeners' stamp (engine/listeners.ts), so
     * a cap set in one process holds in every other at the next event, with no version bump.
     */
    capsRevision: integer("caps_revision").notNull().default(0),
    /**
     * Issue 51, item 4 (lib/messaging/): which deferred marketing message of a customer goes first
     * (`high` · `normal` · `low`), and how long one may stay deferred before it is skipped.
     */
    messagePriority: text("message_priority").$type<Priority>().notNull().default("normal"),
    expireAfterHours: integer("expire_after_hours").notNull().default(48),
    /**
     * The share of customers (0–50 %) whose runs take no actions and end `held_out`, chosen by a
     * stable hash of automation and customer (docs/performance-of-automations.md). 0: off.
     */
    holdoutPercent: smallint("holdout_percent").notNull().default(0),
    /**
     * Set on the platform's built-in automations (`schedules/builtins.ts`): the slug they are
     * seeded and re-created by. Immutable; a built-in can be disabled but never archived.
     */
    builtinSlug: text("builtin_slug"),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("automations_list_idx").on(t.tenantId, t.updatedAt.desc(), t.id),
    index("automations_trigger_events_idx").using("gin", t.triggerEvents),
    uniqueIndex("automations_builtin_unique")
      .on(t.tenantId, t.builtinSlug)
      .where(sql`${t.builtinSlug} is not null`),
    check("automations_builtin_not_archived", sql`${t.builtinSlug} is null or ${t.status} <> 'archived'`),
    check("automations_holdout_percent", sql`${t.holdoutPercent} between 0 and 50`),
  ],
);

/** A full snapshot per published version: what ran, who published it, and why. */
export const automationVersions = pgTable(
  "automation_versions",
  {
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    tenantId: uuid("tenant_id").notNull(),
    name: text("name").notNull(),
    graph: jsonb("graph").$type<Graph>().notNull(),
    inFlightPolicy: inFlightPolicyEnum("in_flight_policy").notNull(),
    note: text("note").notNull().default(""),
    author: text("author").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.automationId, t.version] })],
);

/** Inbound webhook URLs: one token per webhook trigger node of an active automation. */
export const automationHookTokens = pgTable("automation_hook_tokens", {
  token: text("token").primaryKey(),
  tenantId: uuid("tenant_id").notNull(),
  automationId: uuid("automation_id")
    .notNull()
    .references(() => automations.id, { onDelete: "cascade" }),
  nodeId: text("node_id").notNull(),
  /** The webhook trigger's signing secret, a credential of kind `webhook_secret` (no FK: a hook whose credential is gone refuses every request). */
  secretCredentialId: uuid("secret_credential_id"),
  /**
   * Where a plain secret was kept before credentials. Emptied at migration by
   * lib/credentials/move-secrets.ts and never written again; kept for code of the previous release.
   */
  secret: text("secret"),
});

/**
 * One execution of an automation for one trigger event. `event` keeps the trigger event as it
 * fired (type, id, payload, the entity's status then) so every leg sees the same trigger.
 *
 * Partitioned by month on `id` (migration 0010, which drizzle-kit cannot express; see
 * lib/db/schema/PARTITIONS.md): the id's second group is the month it was made in
 * (`automation_run_id()`), so a lookup by id reads one partition. "One run per automation per
 * event" lives in `automation_run_keys`, which a trigger on this table fills.
 */
export const automationRuns = pgTable(
  "automation_runs",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`automation_run_id()`),
    tenantId: uuid("tenant_id").notNull(),
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    automationVersion: integer("automation_version").notNull(),
    status: text("status").$type<RunStatus>().notNull().default("queued"),
    eventId: text("event_id").notNull(),
    triggerNodeId: text("trigger_node_id").notNull(),
    event: jsonb("event").$type<RunEvent>().notNull(),
    domain: text("domain").notNull(),
    entityId: text("entity_id"),
    legs: integer("legs").notNull().default(0),
    /**
     * The first leg's fencing token: raised by each claim of it (the first, or a replay after its
     * worker was lost). The leg's writes check in their own transaction that their claim is still
     * the latest (engine/fence.ts), so a worker cut off while a peer took its leg over cannot
     * write after it. Resumed legs are fenced by their wait's `claim`.
     */
    claim: integer("claim").notNull().default(0),
    /** The earliest pending wait's due time while the run is `waiting` (kept by pause, resume and settle). */
    resumeAt: timestamp("resume_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    durationMs: integer("duration_ms"),
    /**
     * Action steps the settled run took across its legs (each action's last attempt), written by
     * settle: 0 is a run every branch of which stopped at a condition — "Nothing to do" (SPEC §2).
     * Null while the run is in flight, and for runs that ended otherwise (failed, cancelled).
     */
    actionsTaken: integer("actions_taken"),
    error: text("error"),
    reason: text("reason"),
    /** A re-run: the run it repeats (SPEC §4 `rerunOf`). */
    rerunOf: uuid("rerun_of"),
    /** A re-run from a step: the node its first leg starts at, itself included (null: the trigger). */
    rerunFrom: text("rerun_from"),
    /**
     * Why a cap held this run when it started (lib/automations/caps/): set while `held` and kept
     * after; a held run that was released has `released_at`, one discarded is `cancelled`.
     */
    heldReason: text("held_reason"),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releasedBy: text("released_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("automation_runs_rerun_of_idx")
      .on(t.rerunOf)
      .where(sql`${t.rerunOf} is not null`),
    index("automation_runs_tenant_idx").on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index("automation_runs_automation_idx").on(t.tenantId, t.automationId, t.createdAt.desc(), t.id.desc()),
    index("automation_runs_status_idx").on(t.tenantId, t.status, t.createdAt.desc(), t.id.desc()),
    // Run history filtered by automation and status together ("this flow's failed runs").
    index("automation_runs_automation_status_idx").on(
      t.tenantId,
      t.automationId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index("automation_runs_entity_idx").on(t.tenantId, t.domain, t.entityId, t.createdAt.desc()),
    index("automation_runs_active_idx")
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    // Alerts' failed-runs digest: a shop's failed and partial runs by when they finished (lib/alerts/).
    index("automation_runs_failed_idx")
      .on(t.tenantId, t.finishedAt)
      .where(sql`${t.status} in ('failed', 'partial')`),
  ],
);

/**
 * A pending resume: a row plus a graphile-worker job whose `job_key` is this row's id, created in
 * one transaction. Kinds: `delay` (Wait nodes), `approval`, `retry`, `later`.
 */
export const automationRunWaits = pgTable(
  "automation_run_waits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    runId: uuid("run_id")
      .notNull()
      .references(() => automationRuns.id, { onDelete: "cascade" }),
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    /** The version the run was on when it paused; compared with the automation's on wake. */
    automationVersion: integer("automation_version").notNull(),
    nodeId: text("node_id").notNull(),
    nodeType: text("node_type").notNull(),
    /** The wait's own step row, `waiting` until the wait resolves (none for `later`: its run goes on). */
    stepId: uuid("step_id"),
    /** A `later`'s key: asking again under the same key replaces the one waiting. */
    key: text("key"),
    /** The leg that paused here; the resumed leg is numbered when the wait is claimed. */
    leg: integer("leg").notNull(),
    resumeLeg: integer("resume_leg"),
    /** The resumed leg's fencing token, raised by each claim of it (see the run's `claim`). */
    claim: integer("claim").notNull().default(0),
    event: jsonb("event").$type<RunEvent>().notNull(),
    kind: text("kind").$type<WaitKind>().notNull(),
    status: text("status").$type<WaitStatus>().notNull().default("pending"),
    reason: text("reason"),
    resumeAt: timestamp("resume_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /**
     * An approval's decision (`approved` · `rejected`), who made it, when and with what note; a
     * retry's attempt number. The resumed leg follows the decision's out (`timed_out` without one).
     */
    decision: text("decision").$type<"approved" | "rejected">(),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    note: text("note"),
    attempt: integer("attempt"),
    /** A wait for an event: the event type it waits for and its match key (`r:<domain>:<id>`, `f:<path>=<value>`). */
    matchEvent: text("match_event"),
    matchKey: text("match_key"),
    /** The event that woke it (claimed once); the resumed leg follows `received` with it, `timed_out` without. */
    wokenEvent: jsonb("woken_event").$type<RunEvent>(),
    /**
     * A pending approval's reminder to its approvers (`remindAfterHours`) and escalation to the
     * shop's admins (`escalateAfterHours`), each sent once: set when it was sent.
     */
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
  },
  (t) => [
    index("automation_run_waits_run_idx").on(t.tenantId, t.runId),
    // Settling and "resumes in" look up a run's pending waits by run alone.
    index("automation_run_waits_pending_idx").on(t.runId, t.status),
    index("automation_run_waits_due_idx").on(t.status, t.resumeAt),
    index("automation_run_waits_automation_idx").on(t.tenantId, t.automationId, t.status, t.resumeAt),
    // The shop-wide Waiting list: pending waits soonest first, and the latest dropped ones.
    index("automation_run_waits_tenant_pending_idx")
      .on(t.tenantId, t.resumeAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    index("automation_run_waits_tenant_dropped_idx")
      .on(t.tenantId, t.resolvedAt.desc())
      .where(sql`${t.status} in ('cancelled', 'failed')`),
    // A recorded event finds the waits it wakes by type and key (engine/event-waits.ts).
    index("automation_run_waits_event_match_idx")
      .on(t.tenantId, t.matchEvent, t.matchKey)
      .where(sql`${t.status} = 'pending' and ${t.kind} = 'event'`),
    // Approvals still waiting for a decision: what reminders, escalations and alerts look through.
    index("automation_run_waits_pending_approvals_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending' and ${t.kind} = 'approval'`),
    uniqueIndex("automation_run_waits_later_key_unique")
      .on(t.automationId, t.key)
      .where(sql`${t.status} = 'pending' and ${t.kind} = 'later' and ${t.key} is not null`),
  ],
);

/**
 * The event fields that waits of a shop compare (`payload.body.email` for `webhook.received`),
 * written with each wait that matches a field: recording an event reads the few paths of its type
 * here and looks its values up in the waits' match index, instead of reading every wait. A path no
 * wait uses any more costs one lookup that finds nothing.
 */
export const eventMatchPaths = pgTable(
  "event_match_paths",
  {
    tenantId: uuid("tenant_id").notNull(),
    eventType: text("event_type").notNull(),
    path: text("path").notNull(),
    /**
     * When the first wait compared this path. Events recorded from then on have their key for it
     * in `event_match_keys`; a look-back reads the events before it (and a margin for statements
     * that began before the path was committed) by scanning them (engine/event-waits.ts).
     */
    registeredAt: timestamp("registered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "event_match_paths_pkey", columns: [t.tenantId, t.eventType, t.path] })],
);

/**
 * An event's key for each path in `event_match_paths` of its type (`f:<path>=<value>`, as waits
 * carry them), written in the statement that records the event: a wait that looks back for an event
 * matched by a field finds it by one index range, never by reading every event of the type since its
 * run began. Only shops whose waits compare fields write here.
 */
export const eventMatchKeys = pgTable(
  "event_match_keys",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    key: text("key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    eventId: text("event_id").notNull(),
  },
  (t) => [index("event_match_keys_lookup_idx").on(t.tenantId, t.eventType, t.key, t.createdAt)],
);

/**
 * Exactly one run per automation per event (dispatch, fan-out and Later insert runs with
 * "on conflict do nothing"). Not partitioned, so the key is unique across every month: the
 * trigger `automation_runs_claim_key` inserts the row in the run's own statement and skips the
 * run when the key is taken (migration 0010).
 */
export const automationRunKeys = pgTable(
  "automation_run_keys",
  {
    automationId: uuid("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    runId: uuid("run_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "automation_run_keys_pkey", columns: [t.automationId, t.eventId] }),
    index("automation_run_keys_run_idx").on(t.runId),
  ],
);

/**
 * One row per node executed in a leg of a run; a node runs at most once per leg. Partitioned
 * like its runs, on `run_id` (a run's steps sit in its month), so the key carries `run_id`.
 */
export const automationRunSteps = pgTable(
  "automation_run_steps",
  {
    id: uuid("id").notNull().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    runId: uuid("run_id")
      .notNull()
      .references(() => automationRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    nodeType: text("node_type").notNull(),
    category: text("category").notNull(),
    status: text("status").$type<StepStatus>().notNull(),
    leg: integer("leg").notNull(),
    /** Order within the leg (the step's place in the plan): run history lists steps by leg, then this. */
    position: integer("position").notNull().default(0),
    input: jsonb("input").$type<Record<string, unknown>>(),
    output: jsonb("output").$type<Record<string, unknown>>(),
    error: text("error"),
    reason: text("reason"),
    /** A condition's: what it read and compared, and in words (nodes/conditions/why.ts). */
    why: jsonb("why").$type<ConditionWhy>(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    durationMs: integer("duration_ms"),
  },
  (t) => [
    primaryKey({ name: "automation_run_steps_pkey", columns: [t.id, t.runId] }),
    unique("automation_run_steps_node_leg_unique").on(t.runId, t.nodeId, t.leg),
  ],
);

/**
 * The dedupe record of every side effect: unique per (run, node, leg). Effects inside our
 * database are written in the same transaction as this row; an HTTP call records `sending`
 * before the request and its outcome after.
 */
export const actionDeliveries = pgTable(
  "action_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    runId: uuid("run_id")
      .notNull()
      .references(() => automationRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    leg: integer("leg").notNull(),
    nodeType: text("node_type").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    response: jsonb("response").$type<Record<string, unknown>>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    unique("action_deliveries_dedupe_unique").on(t.runId, t.nodeId, t.leg),
    index("action_deliveries_tenant_idx").on(t.tenantId, t.nodeType, t.createdAt.desc(), t.id.desc()),
  ],
);

/** Emails written by flows: always kept here (viewable in the app), sent via SMTP when configured. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * The shop whose outbox lists it. Null for an email that carries a sign-in secret (an
     * invitation, a password reset, lib/auth/auth-emails.ts): it belongs to the person it is sent
     * to, so no shop's outbox shows it, and its body is sealed.
     */
    tenantId: uuid("tenant_id"),
    runId: uuid("run_id").references(() => automationRuns.id, { onDelete: "set null" }),
    nodeId: text("node_id"),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    bodyHtml: text("body_html").notNull(),
    /**
     * Extra headers sent with it: a marketing email's `List-Unsubscribe` and
     * `List-Unsubscribe-Post` (RFC 8058, lib/customers/consent). Empty for every other email.
     */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    status: text("status").$type<"stored" | "queued" | "sent" | "failed">().notNull(),
    error: text("error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("outbox_emails_tenant_idx").on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    // Purging a month of runs clears their links here (set null) by run id.
    index("outbox_emails_run_idx")
      .on(t.runId)
      .where(sql`${t.runId} is not null`),
  ],
);

/** Staff to-dos created by flows ("escalate if still unhandled"). */
export const staffTasks = pgTable(
  "staff_tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    runId: uuid("run_id").references(() => automationRuns.id, { onDelete: "set null" }),
    nodeId: text("node_id"),
    title: text("title").notNull(),
    assignee: text("assignee"),
    domain: text("domain"),
    entityId: text("entity_id"),
    dueAt: timestamp("due_at", { withTimezone: true }),
    status: text("status").$type<"open" | "done">().notNull().default("open"),
    doneAt: timestamp("done_at", { withTimezone: true }),
    doneBy: text("done_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("staff_tasks_tenant_idx").on(t.tenantId, t.status, t.createdAt.desc(), t.id.desc()),
    index("staff_tasks_run_idx")
      .on(t.runId)
      .where(sql`${t.runId} is not null`),
  ],
);

export type RunStatus =
  "queued" | "running" | "waiting" | "succeeded" | "partial" | "failed" | "cancelled" | "held" | "held_out";

/** An automation's caps (SPEC §2 "Alerts and caps"): each limit is off when absent. */
export interface AutomationCaps {
  /** Runs started in any rolling hour, held past it. */
  maxRunsPerHour?: number;
  /** Runs for one record within `hours`, held past `count` ("one email per customer per 16 h"). */
  maxPerRecord?: { count: number; hours: number };
  /** Pause the automation when `maxRunsPerHour` holds a run. */
  pauseOnStorm?: boolean;
}
export type StepStatus = "success" | "failed" | "skipped" | "waiting";
export type DeliveryStatus = "sending" | "delivered" | "failed";
export type WaitKind = "delay" | "approval" | "retry" | "later" | "event" | "deferred";
export type WaitStatus = "pending" | "resumed" | "cancelled" | "failed";

/** The trigger event as a run keeps it. `entityStatus` is the status the event fired for. */
export interface RunEvent {
  id: string;
  type: string;
  domain: string;
  entityId: string | null;
  entityStatus: string | null;
  payload: Record<string, unknown>;
  occurredAt: string;
}
