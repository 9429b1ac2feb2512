import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { automationRuns, automations, scheduleFires, type RunEvent } from "@/lib/db/schema";
import { runJobKey } from "@/lib/automations/engine/start";
import { enqueueJobs, freshJobsSql } from "@/lib/jobs";
import { audienceWhere } from "./audience";
import { config } from "@/lib/config/config";

/** Customers per fan-out batch (one transaction each). Default 1,000, or `SCHEDULE_FANOUT_BATCH`. */
export const FANOUT_BATCH = config().SCHEDULE_FANOUT_BATCH;

export const FANOUT_CANCELLED =
  "The automation was switched off while this fire's runs were being created, so the rest were not.";

/** The event a schedule run keeps: its id is the run's dedupe key (fire, and customer with an audience). */
export const scheduleEventId = (fireId: string, customerId?: string) =>
  customerId === undefined ? `schedule:${fireId}` : `schedule:${fireId}:${customerId}`;

type Fire = typeof scheduleFires.$inferSelect;

function eventPayload(fire: Fire) {
  return {
    fireId: fire.id,
    nodeId: fire.nodeId,
    scheduledFor: fire.fireAt.toISOString(),
    manual: fire.kind === "manual",
  };
}

/**
 * The `schedule_fanout` job: creates the runs of one fire.
 *
 * - Without an audience: one entityless run (domain `schedule`).
 * - With one: a run per matching customer, in batches of `FANOUT_BATCH` over a keyset on the
 *   customer id. Each batch is its own transaction: the fire row is locked, the runs are inserted
 *   with one set-based statement that also adds their `automation_execute` jobs (freshJobsSql),
 *   and the fire's cursor advanced, all together. Run ids are unique per (automation, event id) and
 *   the event id is `schedule:<fire>:<customer>`, so a fan-out killed at any line and retried
 *   continues from the last committed batch and creates nobody's run twice.
 *
 * The audience and version are the fire's (fixed when it was claimed), so every batch of one fire
 * uses the same ones. If the automation is switched off mid-way, the fire stops (`cancelled`).
 */
export async function fanOut(fireId: string, batchSize = FANOUT_BATCH): Promise<void> {
  for (;;) {
    const more = await getDb().transaction((tx) => fanOutBatch(tx, fireId, batchSize));
    if (!more) return;
  }
}

/** One batch; returns whether another is needed. */
async function fanOutBatch(tx: Tx, fireId: string, batchSize: number): Promise<boolean> {
  const [fire] = await tx.select().from(scheduleFires).where(eq(scheduleFires.id, fireId)).for("update");
  if (!fire || fire.status !== "pending") return false;
  const [automation] = await tx
    .select({ status: automations.status })
    .from(automations)
    .where(and(eq(automations.tenantId, fire.tenantId), eq(automations.id, fire.automationId)));
  if (!automation || automation.status !== "active") {
    await tx
      .update(scheduleFires)
      .set({ status: "cancelled", reason: FANOUT_CANCELLED, finishedAt: new Date() })
      .where(eq(scheduleFires.id, fire.id));
    return false;
  }
  const payload = eventPayload(fire);
  const occurredAt = fire.fireAt.toISOString();

  if (!fire.audience) {
    const id = scheduleEventId(fire.id);
    const event: RunEvent = {
      id,
      type: "schedule.fired",
      domain: "schedule",
      entityId: null,
      entityStatus: null,
      payload,
      occurredAt,
    };
    const created = await tx
      .insert(automationRuns)
      .values({
        tenantId: fire.tenantId,
        automationId: fire.automationId,
        automationVersion: fire.automationVersion,
        eventId: id,
        triggerNodeId: fire.nodeId,
        event,
        domain: "schedule",
        entityId: null,
      })
      .onConflictDoNothing()
      .returning({ id: automationRuns.id });
    await enqueueRuns(
      tx,
      fire.tenantId,
      created.map((r) => r.id),
    );
    await tx
      .update(scheduleFires)
      .set({ status: "done", runsCreated: created.length, finishedAt: new Date() })
      .where(eq(scheduleFires.id, fire.id));
    return false;
  }

  const prefix = `schedule:${fire.id}:`;
  // One statement: pick the batch, insert its runs, and add their `automation_execute` jobs
  // (key run:<id>, as dispatch.ts does) — no round trip of a thousand ids through the app.
  const [result] = await tx.execute<{ created: number; last: string | null; picked: number }>(sql`
    with picked as (
      select e.id from entities e
      where ${audienceWhere(fire.tenantId, fire.audience, fire.fireAt)}
        ${fire.cursor === null ? sql`` : sql`and e.id > ${fire.cursor}`}
      order by e.id
      limit ${batchSize}
    ),
    created as (
      insert into automation_runs
        (tenant_id, automation_id, automation_version, event_id, trigger_node_id, event, domain, entity_id)
      select ${fire.tenantId}::uuid, ${fire.automationId}::uuid, ${fire.automationVersion}::int,
             ${prefix} || p.id, ${fire.nodeId}::text,
             jsonb_build_object(
               'id', ${prefix} || p.id, 'type', 'schedule.fired', 'domain', 'customer', 'entityId', p.id,
               'entityStatus', null, 'payload', ${JSON.stringify(payload)}::jsonb, 'occurredAt', ${occurredAt}::text),
             'customer', p.id
      from picked p
      on conflict do nothing
      returning id
    ),
    ${freshJobsSql("jobs", "automation_execute", fire.tenantId, sql`select json_build_object('runId', id) as payload, 'run:' || id::text as key from created`)}
    select (select count(*)::int from created) as created,
           -- Read so that the NOTIFY runs (a CTE that only reads runs only when read).
           (select count(*)::int from jobs) as notified,
           (select max(id) from picked) as last,
           (select count(*)::int from picked) as picked`);
  const created = result?.created ?? 0;
  const last = result?.last ?? null;
  const picked = result?.picked ?? 0;
  const finished = picked < batchSize;
  await tx
    .update(scheduleFires)
    .set({
      cursor: last ?? fire.cursor,
      runsCreated: sql`${scheduleFires.runsCreated} + ${created}`,
      ...(finished ? { status: "done" as const, finishedAt: new Date() } : {}),
    })
    .where(eq(scheduleFires.id, fire.id));
  return !finished;
}

async function enqueueRuns(tx: Tx, tenantId: string, runIds: string[]): Promise<void> {
  await enqueueJobs(
    tx,
    runIds.map((runId) => ({
      task: "automation_execute" as const,
      payload: { runId },
      jobKey: runJobKey(runId),
      tenantId,
    })),
  );
}
