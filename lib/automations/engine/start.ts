import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { automationRuns, type RunEvent } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { RecordedEvent } from "@/lib/events/types";
import { enqueueJobs, freshJobsSql } from "@/lib/jobs";
import { decideCaps } from "@/lib/automations/caps/decide";
import { lockAndCountCaps } from "@/lib/automations/caps/usage";
import type { Graph } from "@/lib/automations/graph/schema";
import { listenersFor, stampMatches, type Listener } from "./listeners";
import { wakeEventWaitsSql } from "./event-waits";
import { effectiveDomain, registry, triggerMatches } from "@/lib/automations/nodes/registry";

/** The job key of a run's first-leg job: lets the reaper tell whether that job still exists. */
export const runJobKey = (runId: string) => `run:${runId}`;

/** An event aimed at one automation's trigger node (an inbound webhook), not at every listener. */
export interface EventTarget {
  automationId: string;
  nodeId: string;
}

export function toRunEvent(event: Omit<RecordedEvent, "inserted">): RunEvent {
  const payload = event.payload;
  const status =
    typeof payload.to === "string" ? payload.to : typeof payload.status === "string" ? payload.status : null;
  return {
    id: event.id,
    type: event.type,
    domain: event.domain,
    entityId: event.entityId,
    entityStatus: status,
    payload,
    occurredAt: event.createdAt.toISOString(),
  };
}

/** The first trigger node of `graph` that listens to this event and whose filters accept it. */
function matchingTrigger(graph: Graph, event: EventFacts, target?: EventTarget) {
  return graph.nodes.find((node) => {
    if (target && node.id !== target.nodeId) return false;
    const definition = registry.get(node.type);
    if (!definition || definition.category !== "trigger" || definition.event !== event.type) return false;
    return triggerMatches(node.type, node.params, { type: event.type, payload: event.payload });
  });
}

/** What starting a run needs to know of its event (it may not be recorded yet). */
export type EventFacts = Pick<RecordedEvent, "id" | "type" | "domain" | "entityId" | "payload">;

/** A run to insert: its event is complete but for `occurredAt`, which the insert adds. */
export interface PlannedRun {
  automationId: string;
  automationVersion: number;
  eventId: string;
  triggerNodeId: string;
  event: Omit<RunEvent, "occurredAt">;
  domain: string;
  entityId: string | null;
  /** Why a cap holds it (caps/): it is inserted `held`, with no job. Null: it starts. */
  heldReason: string | null;
}

/** The runs `events` start: one per (listener whose trigger accepts the event, event). Pure. */
export function plannedRuns(events: EventFacts[], listeners: Listener[], target?: EventTarget): PlannedRun[] {
  const runs: PlannedRun[] = [];
  for (const event of events) {
    for (const automation of listeners) {
      if (target && automation.id !== target.automationId) continue;
      const trigger = matchingTrigger(automation.graph, event, target);
      if (!trigger) continue;
      const { occurredAt: _occurredAt, ...runEvent } = toRunEvent({ ...event, createdAt: new Date(0) });
      runs.push({
        automationId: automation.id,
        automationVersion: automation.version,
        eventId: event.id,
        triggerNodeId: trigger.id,
        event: runEvent,
        domain: effectiveDomain(trigger) ?? event.domain,
        entityId: event.entityId,
        heldReason: null,
      });
    }
  }
  return runs;
}

/** How often a start is tried again when the listeners changed under it, before giving up. */
export const MAX_ATTEMPTS = 5;

/** Said when automations kept changing through every attempt (it takes a publish every few ms). */
export const listenersKeptChanging = () =>
  new AppError(
    409,
    "conflict",
    "The shop's automations changed several times while this was being recorded; nothing was recorded. Retry.",
  );

/**
 * The SQL that inserts `runs` (a CTE of planned runs with an `occurred_at` text column), skipping
 * those already started (unique per automation and event), and adds the `automation_execute` jobs
 * of those that start (freshJobsSql): CTEs `runs` (the ids created) and `jobs` (one row when any
 * job was added). A run with a `held_reason` is inserted `held`, with no job, until released.
 */
export function insertRunsSql(tenantId: string, planned: SQL, where: SQL): SQL {
  return sql`runs as (
      insert into ${automationRuns} (tenant_id, automation_id, automation_version, event_id, trigger_node_id, event, domain, entity_id, status, held_reason)
      select ${tenantId}, p.automation_id, p.automation_version, p.event_id, p.trigger_node_id,
             p.event || jsonb_build_object('occurredAt', p.occurred_at), p.domain, p.entity_id,
             case when p.held_reason is null then 'queued' else 'held' end, p.held_reason
      from ${planned} p where ${where}
      on conflict do nothing
      returning id, held_reason
    ),
    ${freshJobsSql("jobs", "automation_execute", tenantId, sql`select json_build_object('runId', id) as payload, 'run:' || id as key from runs where held_reason is null`)}`;
}

/**
 * Holds the planned runs that pass a cap of their automation (caps/), in the caller's transaction:
 * locks the capped automations' starts, counts what they started, marks the runs over a cap with
 * their reason, and adds an `automation_storm` job for each automation with `pauseOnStorm` whose
 * hourly cap held a run. Runs of automations without caps pass through untouched, with no query.
 */
export async function holdOverCaps(tx: DbOrTx, tenantId: string, runs: PlannedRun[], listeners: Listener[]) {
  const capsById = new Map(listeners.map((l) => [l.id, l.caps]));
  const capsOf = (id: string) => capsById.get(id) ?? null;
  if (!runs.some((r) => capsOf(r.automationId))) return runs;
  const usage = await lockAndCountCaps(tx, tenantId, runs, capsOf);
  const { heldReasons, stormed } = decideCaps(runs, capsOf, usage);
  const pausing = stormed.filter((id) => capsOf(id)?.pauseOnStorm);
  await enqueueJobs(
    tx,
    pausing.map((automationId) => ({
      task: "automation_storm" as const,
      payload: { automationId },
      jobKey: `storm:${automationId}`,
    })),
  );
  return runs.map((run, i) => ({ ...run, heldReason: heldReasons[i] ?? null }));
}

/** The planned runs as JSON for `json_to_recordset`, matching `PLANNED_COLUMNS`. */
export function plannedJson(runs: PlannedRun[], occurredAt?: (run: PlannedRun) => string): string {
  return JSON.stringify(
    runs.map((r) => ({
      automation_id: r.automationId,
      automation_version: r.automationVersion,
      event_id: r.eventId,
      trigger_node_id: r.triggerNodeId,
      event: r.event,
      domain: r.domain,
      entity_id: r.entityId,
      occurred_at: occurredAt?.(r) ?? null,
      held_reason: r.heldReason,
    })),
  );
}

export const PLANNED_COLUMNS = sql.raw(
  "automation_id uuid, automation_version int, event_id text, trigger_node_id text, event jsonb, domain text, entity_id text, occurred_at text, held_reason text",
);

/**
 * Starts one run per (active automation listening to the event, event) inside the transaction that
 * recorded the event, with its `automation_execute` job: an event and its runs commit together.
 * Idempotent: a run is unique per (automation, event id). Returns the ids of the runs created.
 *
 * The listeners come from memory (listeners.ts); one statement checks that they are still the
 * database's, inserts the runs and adds their jobs. When they changed, it writes nothing and the
 * start is tried again with listeners read afresh.
 */
export async function startRuns(
  tx: DbOrTx,
  tenantId: string,
  events: RecordedEvent[],
  target?: EventTarget,
): Promise<string[]> {
  const fresh = events.filter((e) => e.inserted);
  if (fresh.length === 0) return [];
  const types = [...new Set(fresh.map((e) => e.type))];
  const occurredAt = new Map(fresh.map((e) => [e.id, e.createdAt.toISOString()]));
  // Every recorded event wakes the waits for it (a target aims only the runs it starts).
  const recorded = JSON.stringify(
    fresh.map((e) => ({
      id: e.id,
      type: e.type,
      domain: e.domain,
      entity_id: e.entityId,
      payload: e.payload,
      created_at: e.createdAt.toISOString(),
    })),
  );
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { listeners, stamp } = await listenersFor(tx, tenantId, types, { fresh: attempt > 0 });
    const runs = await holdOverCaps(tx, tenantId, plannedRuns(fresh, listeners, target), listeners);
    const wake =
      attempt === 0
        ? wakeEventWaitsSql(
            tenantId,
            sql`select * from json_to_recordset(${recorded}::json)
              as x(id text, type text, domain text, entity_id text, payload jsonb, created_at timestamptz)`,
          )
        : sql`ew_notify as (select 1 where false)`;
    // Prepared (lib/db/prepared.ts): its text is the same for every event (values are parameters),
    // so it is planned once per connection, not on every record change (1 ms a plan, `bench -- connect`).
    const [result] = await executePrepared<{ ok: boolean; ids: string[] }>(
      sql`
      with ok as (${stampMatches(tenantId, types, stamp)}),
      planned as (select * from json_to_recordset(${plannedJson(runs, (r) => occurredAt.get(r.eventId)!)}::json) as p(${PLANNED_COLUMNS})),
      ${insertRunsSql(tenantId, sql`planned`, sql`(select ok from ok)`)},
      ${wake}
      select (select ok from ok) as ok,
             coalesce((select json_agg(id) from runs), '[]') as ids,
             (select count(*) from jobs) as jobs,
             (select count(*) from ew_notify) as woke`,
      tx,
    );
    if (result?.ok) return result.ids;
  }
  throw listenersKeptChanging();
}

/** Runs created for an event, for callers that report them (the webhook endpoint). */
export async function runsForEvent(tx: DbOrTx, tenantId: string, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  return tx
    .select({
      id: automationRuns.id,
      automationId: automationRuns.automationId,
      status: automationRuns.status,
    })
    .from(automationRuns)
    .where(and(eq(automationRuns.tenantId, tenantId), inArray(automationRuns.eventId, eventIds)));
}
