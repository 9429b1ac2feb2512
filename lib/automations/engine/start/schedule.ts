import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import type { AutomationCaps } from "@/lib/db/schema";
import { insertRunsSql, startPlanned } from "./insert";
import { runEventOf, type PlannedRun } from "./plan";

/*
 * A schedule's fire (schedules/fanout.ts decides when, and which customers): its runs start here,
 * capped like any trigger's. A fan-out is set-based, a batch of up to 1,000 customers at a time in
 * its own transaction; this file starts one batch.
 */

/** What a fire starts: its runs' automation, version and trigger, and their event. */
export interface FireStart {
  tenantId: string;
  automationId: string;
  automationVersion: number;
  triggerNodeId: string;
  /**
   * The automation's caps as the batch begins. A fan-out is a trigger like any other: runs past a
   * cap are held with their reason, and `pauseOnStorm` pauses it (caps.ts). That holds for Run now
   * too: a second Run now must not reach every customer again past "one per customer per 16 h".
   */
  caps: AutomationCaps | null;
  /** The event the runs keep. With an audience each run's is `<id>:<customer>`, about that customer. */
  event: { id: string; type: string; domain: string; payload: Record<string, unknown>; occurredAt: Date };
}

/** The planned run of `start` about the record `recordId`, or its one run without a record. */
function plannedFor(start: FireStart, recordId: string | null): PlannedRun {
  const eventId = recordId === null ? start.event.id : `${start.event.id}:${recordId}`;
  return {
    automationId: start.automationId,
    automationVersion: start.automationVersion,
    eventId,
    triggerNodeId: start.triggerNodeId,
    event: runEventOf({ ...start.event, id: eventId, entityId: recordId }),
    domain: start.event.domain,
    entityId: recordId,
    heldReason: null,
  };
}

/** Starts the one run of a fire without an audience (unique per fire). Returns how many were created. */
export async function startFireRun(tx: Tx, start: FireStart): Promise<number> {
  const created = await startPlanned(tx, start.tenantId, [plannedFor(start, null)], {
    capsOf: () => start.caps,
    occurredAt: () => start.event.occurredAt.toISOString(),
  });
  return created.length;
}

export interface FireBatch {
  /** Runs created (held ones included); a customer whose run this fire already made is skipped. */
  created: number;
  /** Customers `records` picked: fewer than the batch's size means the fan-out is done. */
  picked: number;
  /** The last customer picked, where the next batch goes on from (null: none was). */
  last: string | null;
}

/**
 * Starts one batch of a fan-out: a run per record that `records` picks (a query of `id`, in keyset
 * order, limited to the batch), about that record, in the caller's transaction.
 *
 * Without caps it is one statement — pick, insert the runs, add their `automation_execute` jobs —
 * with no round trip of a thousand ids through the app. With caps, the batch's ids are read first,
 * and the runs go through the same lock, counts (one per kind of cap for the whole batch) and
 * decision as an event's (`startPlanned` → caps.ts), then one insert.
 */
export async function startFireBatch(tx: Tx, start: FireStart, records: SQL): Promise<FireBatch> {
  if (start.caps) {
    const picked = await tx.execute<{ id: string }>(records);
    const ids = picked.map((r) => r.id);
    const created = await startPlanned(
      tx,
      start.tenantId,
      ids.map((id) => plannedFor(start, id)),
      { capsOf: () => start.caps, occurredAt: () => start.event.occurredAt.toISOString() },
    );
    return { created: created.length, picked: ids.length, last: ids.at(-1) ?? null };
  }
  // The event as plannedFor makes it, but for the id and the record, which each row fills in.
  const { id: _id, entityId: _entityId, ...template } = plannedFor(start, null).event;
  const prefix = `${start.event.id}:`;
  const [result] = await tx.execute<{ created: number; last: string | null; picked: number }>(sql`
    with picked as (${records}),
    planned as (
      select ${start.automationId}::uuid as automation_id, ${start.automationVersion}::int as automation_version,
             ${prefix} || p.id as event_id, ${start.triggerNodeId}::text as trigger_node_id,
             ${JSON.stringify(template)}::jsonb || jsonb_build_object('id', ${prefix} || p.id, 'entityId', p.id) as event,
             ${start.event.domain}::text as domain, p.id as entity_id,
             ${start.event.occurredAt.toISOString()}::text as occurred_at,
             null::text as held_reason, null::uuid as rerun_of, null::text as rerun_from
      from picked p
    ),
    ${insertRunsSql(start.tenantId, sql`planned`, sql`true`)}
    select (select count(*)::int from runs) as created,
           -- Read so that the NOTIFY runs (a CTE that only reads runs only when read).
           (select count(*)::int from jobs) as notified,
           (select max(id) from picked) as last,
           (select count(*)::int from picked) as picked`);
  return { created: result?.created ?? 0, picked: result?.picked ?? 0, last: result?.last ?? null };
}
