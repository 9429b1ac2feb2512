import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { uuidArray } from "@/lib/db/array-literal";

/*
 * Waits for an event (SPEC §2 "Wait for an event"): how a recorded event finds the waits it wakes,
 * and how a wait just written looks back for the event it may have missed.
 *
 * A wait of kind `event` carries its event type (`match_event`) and its key (`match_key`, made by
 * `matchKeyFor` in nodes/timing/wait-for-event.ts): `r:<domain>:<id>` for "the same record",
 * `f:<path>=<value>` for "a field equals" (value trimmed and lower-cased). An event's keys are
 * computed here in SQL, the same way: its record's, and one per path that the shop's waits compare
 * for its type (`event_match_paths`). Each key is one lookup in the partial index of pending event
 * waits — never a scan, however many runs wait.
 *
 * Waking is claiming: `woken_event` is set once (the first event wins), `resume_at` and the wait's
 * job move to now, and the resumed leg follows `received`. A job the WakeTimer or a worker already
 * holds is left alone: it resumes the wait at its time and finds the event there.
 *
 * No lost wake-up: the event side sees only waits committed before its statement began, so the
 * wait side looks back — in the transaction that writes the wait, again right after it commits,
 * and in the reaper's sweep — for an event of its type and key recorded since the run's trigger.
 * For a record's key that is one range of `events_entity_idx`; for a field's, one range of
 * `event_match_keys`, where recording an event keeps its field keys (only for paths some wait
 * compares), so neither reads the shop's other events of the type, however many (issue 46).
 */

/** The event as a resumed leg reads it: `{steps.<id>.event.…}`. */
const wokenEventJson = (e: string) =>
  sql.raw(`jsonb_build_object('id', ${e}.id, 'type', ${e}.type, 'domain', ${e}.domain, 'entityId', ${e}.entity_id,
    'payload', ${e}.payload, 'occurredAt', to_char(${e}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`);

/** The event's value at a wait's path, trimmed and lower-cased as keys are (null when absent). */
const valueAt = (e: string, path: string) =>
  sql.raw(`lower(btrim(jsonb_build_object('id', ${e}.id, 'type', ${e}.type, 'domain', ${e}.domain,
    'entityId', ${e}.entity_id, 'payload', ${e}.payload) #>> string_to_array(${path}, '.')))`);

/**
 * CTEs that wake the pending event waits of `tenantId` matched by the events `source` selects
 * (`id, type, domain, entity_id, payload, created_at`): `ew_woken` (their ids) and `ew_notify`
 * (one row when a job was moved). The statement must read `ew_notify`, or no worker is told.
 */
export function wakeEventWaitsSql(tenantId: string, source: SQL): SQL {
  return sql`ew_events as (${source}),
    ew_keys as (
      select e.id as event_id, e.type, e.created_at, 'r:' || e.domain || ':' || e.entity_id as key
      from ew_events e where e.entity_id is not null
      union all
      select e.id, e.type, e.created_at, 'f:' || p.path || '=' || v.value
      from ew_events e
      join event_match_paths p on p.tenant_id = ${tenantId} and p.event_type = e.type
      cross join lateral (select ${valueAt("e", "p.path")} as value) v
      where v.value <> ''
    ),
    -- Kept for look-backs: the field keys, found by one index range (see lookBackForEvents).
    ew_kept as (
      insert into event_match_keys (tenant_id, event_type, key, created_at, event_id)
      select ${tenantId}, type, key, created_at, event_id from ew_keys where key like 'f:%'
    ),
    ew_found as (
      select distinct on (w.id) w.id, k.event_id
      from ew_keys k join automation_run_waits w
        on w.tenant_id = ${tenantId} and w.match_event = k.type and w.match_key = k.key
       and w.status = 'pending' and w.kind = 'event'
      where w.woken_event is null
      order by w.id, k.created_at
    ),
    ew_woken as (
      update automation_run_waits w set woken_event = ${wokenEventJson("e")}, resume_at = now()
      from ew_found f join ew_events e on e.id = f.event_id
      where w.id = f.id and w.status = 'pending' and w.woken_event is null
      returning w.id
    ),
    ew_jobs as (
      update graphile_worker._private_jobs j set run_at = now()
      from ew_woken w where j.key = w.id::text and j.locked_at is null
      returning 1
    ),
    ew_notify as (select pg_notify('jobs:insert', '{"count":1}') from ew_jobs limit 1)`;
}

/**
 * How long after a path was registered an event may still have been recorded without its key: its
 * statement began before the registering transaction (a leg's, bounded by the worker's statement
 * and transaction limits) committed, so it did not see the path.
 */
const KEYED_MARGIN = "10 minutes";

/**
 * Wakes the pending event waits among `waitIds` for which an event of their type and key was
 * recorded since their run's trigger (not the trigger itself): the look back that closes the gap
 * between a leg's start and its wait's commit. Returns the ids it woke.
 */
export async function lookBackForEvents(db: DbOrTx, waitIds: string[]): Promise<string[]> {
  if (waitIds.length === 0) return [];
  const rows = await executePrepared<{ id: string }>(lookBackSql(waitIds), db);
  return rows.map((r) => String(r.id));
}

/** The look-back's statement (`lookBackForEvents`), apart so a test can read its plan. */
export function lookBackSql(waitIds: string[]): SQL {
  return sql`
    with waits as (
      select id, tenant_id, match_event, match_key, event->>'id' as trigger_id,
        (event->>'occurredAt')::timestamptz as since,
        case when match_key like 'r:%' then split_part(match_key, ':', 2) end as record_domain,
        case when match_key like 'r:%' then substr(match_key, length(split_part(match_key, ':', 2)) + 4) end as record_id,
        case when match_key like 'f:%' then split_part(substr(match_key, 3), '=', 1) end as path,
        case when match_key like 'f:%' then substr(match_key, strpos(match_key, '=') + 1) end as value
      from automation_run_waits
      where id = any(${uuidArray(waitIds)}::uuid[]) and status = 'pending' and kind = 'event' and woken_event is null
    ),
    w as (
      select w.*, coalesce(p.registered_at + interval '${sql.raw(KEYED_MARGIN)}', 'infinity') as keyed_from
      from waits w left join event_match_paths p
        on p.tenant_id = w.tenant_id and p.event_type = w.match_event and p.path = w.path
    ),
    found as (
      select w.id as wait_id, e.* from w cross join lateral (
        select e.id, e.type, e.domain, e.entity_id, e.payload, e.created_at from events e
        where w.record_domain is not null and e.tenant_id = w.tenant_id and e.domain = w.record_domain
          and e.entity_id = w.record_id and e.created_at >= w.since and e.type = w.match_event
          and e.id is distinct from w.trigger_id
        union all
        select e.id, e.type, e.domain, e.entity_id, e.payload, e.created_at
        from event_match_keys k join events e on e.tenant_id = k.tenant_id and e.id = k.event_id
        where w.path is not null and k.tenant_id = w.tenant_id and k.event_type = w.match_event
          and k.key = w.match_key and k.created_at >= w.since and k.event_id is distinct from w.trigger_id
        union all
        -- Events recorded before their path was kept: scanned, but only that span (empty once the
        -- run began after it), with a margin for statements that began before the path committed.
        select e.id, e.type, e.domain, e.entity_id, e.payload, e.created_at from events e
        where w.path is not null and e.tenant_id = w.tenant_id and e.type = w.match_event
          and e.created_at >= w.since and e.created_at < w.keyed_from
          and e.id is distinct from w.trigger_id and ${valueAt("e", "w.path")} = w.value
        order by created_at limit 1
      ) e
    ),
    woken as (
      update automation_run_waits w set woken_event = ${wokenEventJson("f")}, resume_at = now()
      from found f where w.id = f.wait_id and w.status = 'pending' and w.woken_event is null
      returning w.id
    ),
    jobs as (
      update graphile_worker._private_jobs j set run_at = now()
      from woken w where j.key = w.id::text and j.locked_at is null
      returning 1
    ),
    notify as (select pg_notify('jobs:insert', '{"count":1}') from jobs limit 1)
    select id, (select count(*) from notify) as notified from woken`;
}

/**
 * The reaper's sweep: looks back for the pending event waits written in the last 15 minutes, so a
 * wake-up lost to two transactions that each could not see the other's row is found within minutes.
 */
export async function sweepEventWaits(db: DbOrTx): Promise<string[]> {
  const recent = await db.execute<{ id: string }>(sql`
    select id from automation_run_waits
    where status = 'pending' and kind = 'event' and woken_event is null
      and created_at > now() - interval '15 minutes'
    limit 10000`);
  return lookBackForEvents(
    db,
    recent.map((r) => String(r.id)),
  );
}
