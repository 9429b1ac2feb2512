import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { recordEvents } from "@/lib/automations/engine/start/events";
import type { NewEvent } from "@/lib/events/types";
import {
  dropExpiredPartitions,
  ensureRunPartitions,
  FINISHED_STATUSES,
} from "@/lib/automations/store/partitions";
import type { OutsideExecutor } from "../executor";

/** Records per batch transaction. */
const BATCH = 500;
/** Said on a step re-run after an interruption (these jobs are idempotent, so nothing is done twice). */
const RESUMED = "Carried on after an interruption; records already handled were not touched again.";

/**
 * Platform jobs run as "outside" effects: they cannot be one transaction with their delivery row,
 * because a shop's backlog must be worked through in batches, each its own transaction. The
 * engine records the delivery before and the outcome after; a re-run after a crash finds the
 * delivery unfinished and runs the job again, which only touches what is still left to do.
 */

/** Sets `status` on a batch of a domain's records picked by `where`, and records their events. */
async function changeStatusInBatches(
  tenantId: string,
  domain: "cart" | "invoice",
  from: string,
  to: string,
  namedEvent: string,
  where: ReturnType<typeof sql>,
): Promise<number> {
  let changed = 0;
  for (;;) {
    const ids = await getDb().transaction(async (tx) => {
      const rows = await tx.execute<{ id: string }>(sql`
        with picked as (
          select e.tenant_id, e.domain, e.id from entities e
          where e.tenant_id = ${tenantId} and e.domain = ${domain} and e.status = ${from} and ${where}
          order by e.id
          limit ${BATCH}
          for update skip locked
        )
        update entities e
        set status = ${to}, data = e.data || jsonb_build_object('status', ${to}::text), updated_at = now()
        from picked p
        where e.tenant_id = p.tenant_id and e.domain = p.domain and e.id = p.id
        returning e.id`);
      const events: NewEvent[] = rows.flatMap((row) => [
        { type: `${domain}.status_changed`, domain, entityId: row.id, payload: { from, to } },
        { type: namedEvent, domain, entityId: row.id, payload: { from, to } },
      ]);
      // The change, its events and the runs they start commit together (like any status change).
      await recordEvents(tx, tenantId, events);
      return rows.length;
    });
    changed += ids;
    if (ids < BATCH) return changed;
  }
}

const cartsRequest = z.object({ idleMinutes: z.number(), before: z.string() });

export const markCartsAbandonedExecutor: OutsideExecutor<
  { idleMinutes: number },
  z.infer<typeof cartsRequest>
> = {
  effect: "outside",
  request: cartsRequest,
  resendReason: RESUMED,
  prepare: ({ idleMinutes }, ctx) => ({
    idleMinutes,
    before: new Date(ctx.now.getTime() - idleMinutes * 60_000).toISOString(),
  }),
  async send({ before }, ctx) {
    const idleSince = sql`coalesce((e.data->>'updatedAt')::timestamptz, e.updated_at) < ${before}::timestamptz`;
    const marked = await changeStatusInBatches(
      ctx.tenantId,
      "cart",
      "open",
      "abandoned",
      "cart.abandoned",
      idleSince,
    );
    return { marked, idleSince: before };
  },
};

const invoicesRequest = z.object({ dueBefore: z.string() });

export const markInvoicesOverdueExecutor: OutsideExecutor<
  Record<string, never>,
  z.infer<typeof invoicesRequest>
> = {
  effect: "outside",
  request: invoicesRequest,
  resendReason: RESUMED,
  prepare: (_params, ctx) => ({ dueBefore: ctx.now.toISOString() }),
  async send({ dueBefore }, ctx) {
    const pastDue = sql`(e.data->>'dueAt')::timestamptz < ${dueBefore}::timestamptz`;
    const marked = await changeStatusInBatches(
      ctx.tenantId,
      "invoice",
      "sent",
      "overdue",
      "invoice.overdue",
      pastDue,
    );
    return { marked };
  },
};

const purgeRequest = z.object({ retentionDays: z.number(), before: z.string() });

export const purgeRunHistoryExecutor: OutsideExecutor<
  { retentionDays: number },
  z.infer<typeof purgeRequest>
> = {
  effect: "outside",
  request: purgeRequest,
  resendReason: RESUMED,
  prepare: ({ retentionDays }, ctx) => ({
    retentionDays,
    before: new Date(ctx.now.getTime() - retentionDays * 86_400_000).toISOString(),
  }),
  async send({ before }, ctx) {
    // Run history is partitioned by month (store/partitions.ts): the months every shop's retention
    // has passed are dropped whole; what is left older than `before` — in the month that straddles
    // it, the legacy partitions, a month kept for a run still going — is deleted in batches. (The
    // batches are not limited to old partitions by id: a run's partition is the month its id was
    // made, and a run stored with an earlier created_at, as imports and tests do, must go too.)
    await ensureRunPartitions();
    const partitionsDropped = await dropExpiredPartitions(ctx.tenantId, before);
    let runs = 0;
    for (;;) {
      // Finished runs only: a run still going (or waiting) is never history, however old.
      const rows = await getDb().execute<{ id: string }>(sql`
        delete from automation_runs r
        where r.id in (
          select id from automation_runs
          where tenant_id = ${ctx.tenantId}
            and status in ${FINISHED_STATUSES}
            and coalesce(finished_at, created_at) < ${before}::timestamptz
            and id <> ${ctx.runId}
          limit ${BATCH})
        returning r.id`);
      runs += rows.length;
      if (rows.length < BATCH) break;
    }
    const fires = await getDb().execute<{ id: string }>(sql`
      delete from schedule_fires where tenant_id = ${ctx.tenantId} and fire_at < ${before}::timestamptz
        and status <> 'pending'
      returning id`);
    return { runsDeleted: runs, partitionsDropped, firesDeleted: fires.length, before };
  },
};
