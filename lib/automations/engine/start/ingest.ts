import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { entities, events as eventsTable } from "@/lib/db/schema";
import { isDomain } from "@/lib/domains/domains";
import type { IngestedEvent } from "@/lib/events/input";
import { wakeEventWaitsSql } from "../event-waits";
import { stampMatches } from "../listeners";
import { anyCapped, capsOfListeners, holdOverCaps } from "./caps";
import { LISTENERS_CHANGED, listenersKeptChanging, withCurrentListeners } from "./current-listeners";
import { insertRunsSql, PLANNED_COLUMNS, plannedJson } from "./insert";
import { plannedRuns, type PlannedRun } from "./plan";

export interface IngestOutcome {
  /** Indexes of the events naming a record the shop does not have. */
  missing: number[];
  /** When each event recorded now was recorded; an id absent here was already recorded. */
  insertedAt: Map<string, Date>;
}

/**
 * Records events and starts their runs in ONE statement (one transaction, one round trip): it
 * checks that every named record exists and that the remembered listeners are still the shop's
 * (listeners.ts), inserts the events (an id already recorded is skipped), inserts one run per
 * (new event, listener whose trigger accepts it) and adds the runs' jobs.
 *
 * An event naming a missing record is not recorded; with `allOrNothing` (an array from one
 * request) no event is. When the listeners changed, nothing is written and the statement runs
 * again with listeners read afresh. Ids must be unique within `events`.
 */
export async function recordIngested(
  tenantId: string,
  events: IngestedEvent[],
  { allOrNothing }: { allOrNothing: boolean },
): Promise<IngestOutcome> {
  const types = [...new Set(events.map((e) => e.type))];
  const input = JSON.stringify(
    events.map((e, i) => ({
      i,
      id: e.id,
      type: e.type,
      domain: e.domain,
      entity_id: e.entityId ?? null,
      payload: e.payload,
      stored: isDomain(e.domain),
    })),
  );
  const facts = events.map((e) => ({ ...e, entityId: e.entityId ?? null }));
  return withCurrentListeners(getDb(), tenantId, types, async ({ listeners, stamp }) => {
    const planned = plannedRuns(facts, listeners);
    const capsOf = capsOfListeners(listeners);
    // A capped automation's runs are decided under its lock, in a transaction (caps/usage.ts);
    // everything else is the one statement below, on its own: no transaction, one round trip.
    const result = anyCapped(planned, capsOf)
      ? await getDb().transaction(async (tx) => {
          const recorded = await alreadyRecorded(tx, tenantId, events);
          const fresh = planned.filter((r) => !recorded.has(r.eventId));
          const held = new Map(
            (await holdOverCaps(tx, tenantId, fresh, capsOf)).map((r) => [
              `${r.automationId} ${r.eventId}`,
              r,
            ]),
          );
          return recordStatement(
            planned.map((r) => held.get(`${r.automationId} ${r.eventId}`) ?? r),
            stamp,
            tx,
          );
        })
      : await recordStatement(planned, stamp);
    if (!result) throw listenersKeptChanging();
    if (!result.ok && !(allOrNothing && result.missing.length > 0)) return LISTENERS_CHANGED;
    return {
      missing: result.missing,
      insertedAt: new Map(result.inserted.map((r) => [r.id, new Date(r.createdAt)])),
    };
  });

  async function recordStatement(planned: PlannedRun[], stamp: string, db: DbOrTx = getDb()) {
    const [result] = await executePrepared<{
      ok: boolean;
      missing: number[];
      inserted: { id: string; createdAt: string }[];
    }>(
      sql`
      with input as (
        select * from json_to_recordset(${input}::json)
          as x(i int, id text, type text, domain text, entity_id text, payload jsonb, stored boolean)
      ),
      -- One primary-key lookup per event (LATERAL … limit 1 is never turned into a join), not an
      -- anti join that a plan made on a young table answers by reading all of the shop's records.
      missing as (
        select x.i from input x
        left join lateral (
          select 1 as found from ${entities} e
          where e.tenant_id = ${tenantId} and e.domain = x.domain and e.id = x.entity_id
          limit 1
        ) e on true
        where x.stored and e.found is null
      ),
      ok as (${stampMatches(tenantId, types, stamp)}),
      ev as (
        insert into ${eventsTable} (tenant_id, id, type, domain, entity_id, payload)
        select ${tenantId}, x.id, x.type, x.domain, x.entity_id, x.payload from input x
        where (select ok from ok)
          and not exists (select 1 from missing m where ${allOrNothing}::boolean or m.i = x.i)
        on conflict do nothing
        returning id, created_at
      ),
      planned as (
        select p.automation_id, p.automation_version, p.event_id, p.trigger_node_id, p.event, p.domain,
               p.entity_id, to_char(ev.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
               p.held_reason, p.rerun_of, p.rerun_from
        from json_to_recordset(${plannedJson(planned)}::json) as p(${PLANNED_COLUMNS})
        join ev on ev.id = p.event_id
      ),
      ${insertRunsSql(tenantId, sql`planned`, sql`true`)},
      ${wakeEventWaitsSql(
        tenantId,
        sql`select x.id, x.type, x.domain, x.entity_id, x.payload, ev.created_at from input x join ev on ev.id = x.id`,
      )}
      select (select ok from ok) as ok,
             (select count(*) from ew_notify) as woke,
             coalesce((select json_agg(i) from missing), '[]') as missing,
             coalesce((select json_agg(json_build_object('id', id, 'createdAt', created_at)) from ev), '[]')
               as inserted,
             (select count(*) from jobs) as jobs`,
      db,
    );
    return result;
  }
}

/** The ids of `events` the shop has already recorded: their runs were decided when they were. */
async function alreadyRecorded(tx: DbOrTx, tenantId: string, events: IngestedEvent[]): Promise<Set<string>> {
  const rows = await tx
    .select({ id: eventsTable.id })
    .from(eventsTable)
    .where(
      and(
        eq(eventsTable.tenantId, tenantId),
        inArray(
          eventsTable.id,
          events.map((e) => e.id),
        ),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
