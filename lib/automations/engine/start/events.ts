import crypto from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { automationRuns, events } from "@/lib/db/schema";
import type { NewEvent, RecordedEvent } from "@/lib/events/types";
import { wakeEventWaitsSql } from "../event-waits";
import { stampMatches } from "../listeners";
import { capsOfListeners, holdOverCaps } from "./caps";
import { LISTENERS_CHANGED, withCurrentListeners } from "./current-listeners";
import { insertRunsSql, PLANNED_COLUMNS, plannedJson } from "./insert";
import { plannedRuns, type EventTarget } from "./plan";

/**
 * Writes event rows inside the caller's transaction and starts the runs of every active
 * automation they trigger, so an entity change, its events and their runs (with their jobs)
 * commit or roll back together. A `target` aims the events at one automation's trigger only
 * (an inbound webhook, a later step, a run for a stored record). With `startRuns: false` (a
 * store connection's test delivery, lib/connections/process.ts) the events are recorded and
 * nothing starts: no run, and no waiting run woken.
 */
export async function recordEvents(
  tx: DbOrTx,
  tenantId: string,
  batch: NewEvent[],
  target?: EventTarget,
  options: { startRuns?: boolean } = {},
): Promise<RecordedEvent[]> {
  if (batch.length === 0) return [];
  const rows = batch.map((e) => ({
    tenantId,
    id: e.id ?? `evt_${crypto.randomUUID()}`,
    type: e.type,
    domain: e.domain,
    entityId: e.entityId,
    payload: e.payload ?? {},
  }));
  const inserted = await tx
    .insert(events)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: events.id, createdAt: events.createdAt });
  const insertedAt = new Map(inserted.map((r) => [r.id, r.createdAt]));
  const now = new Date();
  const recorded = rows.map((r) => ({
    id: r.id,
    type: r.type,
    domain: r.domain,
    entityId: r.entityId,
    payload: r.payload,
    createdAt: insertedAt.get(r.id) ?? now,
    inserted: insertedAt.has(r.id),
  }));
  if (options.startRuns !== false) await startRuns(tx, tenantId, recorded, target);
  return recorded;
}

/**
 * Starts one run per (active automation listening to the event, event) inside the transaction that
 * recorded the event, with its `automation_execute` job: an event and its runs commit together.
 * Idempotent: a run is unique per (automation, event id). Runs over a cap are inserted `held`.
 * Returns the ids of the runs created.
 *
 * The listeners come from memory (listeners.ts); one statement checks that they are still the
 * database's, inserts the runs and adds their jobs. When they changed, it writes nothing and the
 * start is tried again with listeners read afresh (current-listeners.ts).
 */
export async function startRuns(
  tx: DbOrTx,
  tenantId: string,
  recorded: RecordedEvent[],
  target?: EventTarget,
): Promise<string[]> {
  const fresh = recorded.filter((e) => e.inserted);
  if (fresh.length === 0) return [];
  const types = [...new Set(fresh.map((e) => e.type))];
  const occurredAt = new Map(fresh.map((e) => [e.id, e.createdAt.toISOString()]));
  // Every recorded event wakes the waits for it (a target aims only the runs it starts).
  const wakes = JSON.stringify(
    fresh.map((e) => ({
      id: e.id,
      type: e.type,
      domain: e.domain,
      entity_id: e.entityId,
      payload: e.payload,
      created_at: e.createdAt.toISOString(),
    })),
  );
  return withCurrentListeners(tx, tenantId, types, async ({ listeners, stamp }, attempt) => {
    const runs = await holdOverCaps(
      tx,
      tenantId,
      plannedRuns(fresh, listeners, target),
      capsOfListeners(listeners),
    );
    const wake =
      attempt === 0
        ? wakeEventWaitsSql(
            tenantId,
            sql`select * from json_to_recordset(${wakes}::json)
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
    return result?.ok ? result.ids : LISTENERS_CHANGED;
  });
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
