import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { automations, scheduleFires } from "@/lib/db/schema";
import { startFireBatch, startFireRun, type FireStart } from "@/lib/automations/engine/start/schedule";
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
 * The `schedule_fanout` job: creates the runs of one fire, through the engine's one start path
 * (engine/start/schedule.ts), capped like any trigger's runs: past `maxRunsPerHour` or
 * `maxPerRecord` a run is inserted `held`, with its reason and no job.
 *
 * - Without an audience: one entityless run (domain `schedule`).
 * - With one: a run per matching customer, in batches of `FANOUT_BATCH` over a keyset on the
 *   customer id. Each batch is its own transaction: the fire row is locked, the batch's runs are
 *   started (uncapped: one set-based statement that picks the customers, inserts their runs and
 *   adds their `automation_execute` jobs), and the fire's cursor advanced, all together. Run ids
 *   are unique per (automation, event id) and the event id is `schedule:<fire>:<customer>`, so a
 *   fan-out killed at any line and retried continues from the last committed batch and creates
 *   nobody's run twice.
 *
 * The audience and version are the fire's (fixed when it was claimed), so every batch of one fire
 * uses the same ones; the caps are the automation's as each batch begins. If the automation is
 * switched off mid-way (by a person, or paused by a storm its caps held), the fire stops (`cancelled`).
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
    .select({ status: automations.status, caps: automations.caps })
    .from(automations)
    .where(and(eq(automations.tenantId, fire.tenantId), eq(automations.id, fire.automationId)));
  if (!automation || automation.status !== "active") {
    await tx
      .update(scheduleFires)
      .set({ status: "cancelled", reason: FANOUT_CANCELLED, finishedAt: new Date() })
      .where(eq(scheduleFires.id, fire.id));
    return false;
  }
  const start = (domain: string): FireStart => ({
    tenantId: fire.tenantId,
    automationId: fire.automationId,
    automationVersion: fire.automationVersion,
    triggerNodeId: fire.nodeId,
    caps: automation.caps,
    event: {
      id: scheduleEventId(fire.id),
      type: "schedule.fired",
      domain,
      payload: eventPayload(fire),
      occurredAt: fire.fireAt,
    },
  });

  if (!fire.audience) {
    const created = await startFireRun(tx, start("schedule"));
    await tx
      .update(scheduleFires)
      .set({ status: "done", runsCreated: created, finishedAt: new Date() })
      .where(eq(scheduleFires.id, fire.id));
    return false;
  }

  const { created, last, picked } = await startFireBatch(
    tx,
    start("customer"),
    sql`select e.id from entities e
      where ${audienceWhere(fire.tenantId, fire.audience, fire.fireAt)}
        ${fire.cursor === null ? sql`` : sql`and e.id > ${fire.cursor}`}
      order by e.id
      limit ${batchSize}`,
  );
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
