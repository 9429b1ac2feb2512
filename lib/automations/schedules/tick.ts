import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { automations, automationSchedules, scheduleFires } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { compileSchedule } from "@/lib/time/cron";
import { ensureBuiltins } from "./builtins";
import { scheduleNodes } from "@/lib/automations/lifecycle/schedule-sync";

/** A fire time this late or less still runs (once) when the heartbeat gets to it; older ones are missed. */
export const CATCH_UP_MS = 60 * 60_000;
/** Due schedules claimed per transaction. */
const TICK_BATCH = 100;
/** Missed fire times recorded per schedule and tick (an every-minute schedule down for a week would be 10,000). */
const MAX_MISSED_RECORDED = 100;

export const MISSED_LATE =
  "Missed: the scheduler was not running at this time, and fire times more than an hour late are skipped.";
export const MISSED_SUPERSEDED = "Missed: the scheduler was behind, and a later fire time ran instead.";

/** The job key of a fire's fan-out job: one job per fire, whoever enqueues it. */
export const fireJobKey = (fireId: string) => `fire:${fireId}`;

export interface TickResult {
  fired: number;
  missed: number;
  builtinsCreated: number;
}

/**
 * The `schedule_tick` heartbeat (every minute, graphile-worker crontab). Reads the schedules whose
 * `next_fire_at` has come (partial index: the cost is O(due), not O(automations)) and, per
 * schedule, in one transaction:
 *
 * - claims the fire: a `schedule_fires` row unique per (automation, node, fire time) plus its
 *   `schedule_fanout` job; rows are locked `for update skip locked`, and the unique row makes a
 *   second tick or worker that races past the lock a no-op, so a fire time fires at most once;
 * - catches up after downtime: of the fire times that passed unclaimed, the latest one within the
 *   last hour runs (once); every other one is recorded as `missed`, with the reason;
 * - advances `next_fire_at` to the first fire time after `now`.
 *
 * It also re-creates any missing built-in automation (by slug) first.
 */
export async function scheduleTick(now = new Date()): Promise<TickResult> {
  const builtinsCreated = await ensureBuiltins();
  let fired = 0;
  let missed = 0;
  for (;;) {
    const batch = await getDb().transaction(async (tx) => {
      const due = await tx
        .select({
          schedule: automationSchedules,
          status: automations.status,
          version: automations.version,
          graph: automations.activeGraph,
        })
        .from(automationSchedules)
        .innerJoin(automations, eq(automations.id, automationSchedules.automationId))
        .where(and(isNotNull(automationSchedules.nextFireAt), lte(automationSchedules.nextFireAt, now)))
        .orderBy(automationSchedules.nextFireAt)
        .limit(TICK_BATCH)
        .for("update", { of: automationSchedules, skipLocked: true });
      let batchFired = 0;
      let batchMissed = 0;
      for (const row of due) {
        const outcome = await fireDue(tx, row, now);
        batchFired += outcome.fired;
        batchMissed += outcome.missed;
      }
      return { count: due.length, fired: batchFired, missed: batchMissed };
    });
    fired += batch.fired;
    missed += batch.missed;
    if (batch.count < TICK_BATCH) break;
  }
  await rescueFanOuts(now);
  return { fired, missed, builtinsCreated };
}

/** A pending fire whose fan-out job is gone (lost, or out of retries) this long is given a new one. */
const RESCUE_AFTER_MS = 5 * 60_000;

/**
 * Watchdog: a fire still `pending` with no live `schedule_fanout` job (its job failed five times,
 * or was deleted by hand) gets its job back; the fan-out resumes from its cursor, and the per-run
 * dedupe key keeps that from creating anyone's run twice.
 */
async function rescueFanOuts(now: Date): Promise<void> {
  const stuck = await getDb().execute<{ id: string; tenant_id: string }>(sql`
    select f.id, f.tenant_id from schedule_fires f
    where f.status = 'pending' and f.created_at < ${new Date(now.getTime() - RESCUE_AFTER_MS).toISOString()}::timestamptz
      and not exists (
        select 1 from graphile_worker._private_jobs j
        where j.key = 'fire:' || f.id::text and j.attempts < j.max_attempts)
    limit 100`);
  if (stuck.length === 0) return;
  await enqueueJobs(
    getDb(),
    stuck.map((f) => ({
      task: "schedule_fanout" as const,
      payload: { fireId: f.id },
      jobKey: fireJobKey(f.id),
      tenantId: f.tenant_id,
    })),
  );
}

type DueRow = {
  schedule: typeof automationSchedules.$inferSelect;
  status: string;
  version: number;
  graph: (typeof automations.$inferSelect)["activeGraph"];
};

async function fireDue(tx: Tx, row: DueRow, now: Date): Promise<{ fired: number; missed: number }> {
  const { schedule } = row;
  const node = scheduleNodes(row.graph).find((n) => n.nodeId === schedule.nodeId);
  const compiled = compileSchedule(schedule.cron, schedule.timezone, node?.params.dst);
  const where = and(
    eq(automationSchedules.automationId, schedule.automationId),
    eq(automationSchedules.nodeId, schedule.nodeId),
  );
  // Kept in step by publish/pause (sync.ts); if not, the schedule is stale and must not fire.
  if (row.status !== "active" || !node || !compiled || schedule.nextFireAt === null) {
    await tx.delete(automationSchedules).where(where);
    return { fired: 0, missed: 0 };
  }

  const horizon = now.getTime() - CATCH_UP_MS;
  const late: Date[] = [];
  let at: Date | null = schedule.nextFireAt;
  while (at && at.getTime() < horizon) {
    if (late.length >= MAX_MISSED_RECORDED) {
      // Far behind: skip straight to the catch-up window rather than stepping through every time.
      at = compiled.next(new Date(horizon - 1));
      break;
    }
    late.push(at);
    at = compiled.next(at);
  }
  const recent: Date[] = [];
  while (at && at.getTime() <= now.getTime()) {
    recent.push(at);
    at = compiled.next(at);
  }
  const runAt = recent.pop();
  const base = {
    tenantId: schedule.tenantId,
    automationId: schedule.automationId,
    nodeId: schedule.nodeId,
    kind: "scheduled" as const,
    automationVersion: row.version,
    audience: node.params.audience ?? null,
  };
  const missedRows = [
    ...late.map((fireAt) => ({ ...base, fireAt, status: "missed" as const, reason: MISSED_LATE })),
    ...recent.map((fireAt) => ({ ...base, fireAt, status: "missed" as const, reason: MISSED_SUPERSEDED })),
  ].map((r) => ({ ...r, finishedAt: now }));
  if (missedRows.length > 0) await tx.insert(scheduleFires).values(missedRows).onConflictDoNothing();

  let fired = 0;
  if (runAt) {
    const [fire] = await tx
      .insert(scheduleFires)
      .values({ ...base, fireAt: runAt, status: "pending" })
      .onConflictDoNothing()
      .returning({ id: scheduleFires.id });
    if (fire) {
      await enqueueJobs(tx, [
        {
          task: "schedule_fanout",
          payload: { fireId: fire.id },
          jobKey: fireJobKey(fire.id),
          tenantId: schedule.tenantId,
        },
      ]);
      fired = 1;
    }
  }
  await tx
    .update(automationSchedules)
    .set({ nextFireAt: compiled.next(now), updatedAt: now })
    .where(where);
  return { fired, missed: missedRows.length };
}
