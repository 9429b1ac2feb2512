import { sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { log } from "@/lib/log/logger";

/**
 * Run history's month partitions (migration 0010, lib/db/schema/PARTITIONS.md): making them ahead
 * of time, and dropping the ones every shop's retention has passed.
 *
 * A month partition is `automation_runs_yYYYYmMM` with its steps in `automation_run_steps_yYYYYmMM`
 * (same bounds: the run ids made that month). The two `legacy` partitions hold runs made before
 * partitioning; they are never dropped, only deleted from in batches.
 */

/** Rows per batch when a partition's runs are unlinked from the tables that point at them. */
const UNLINK_BATCH = 5000;
/** How long dropping a partition waits for the tables' locks before giving up until the next purge. */
const DROP_LOCK_TIMEOUT = "5s";

/** The statuses a run ends in: only these are history, whatever their age. */
export const FINISHED_STATUSES = sql.raw("('succeeded', 'partial', 'failed', 'cancelled')");

/**
 * Makes this month's and next month's partitions unless they exist (cheap when they do: four
 * catalog lookups). Returns how many months got partitions.
 */
export async function ensureRunPartitions(db: DbOrTx = getDb(), at?: Date): Promise<number> {
  const [row] = await db.execute<{ made: number }>(
    at
      ? sql`select automation_run_partitions_ensure(${at.toISOString()}::timestamptz) as made`
      : sql`select automation_run_partitions_ensure() as made`,
  );
  return Number(row?.made ?? 0);
}

export interface MonthPartition {
  /** Months since January 1970. */
  month: number;
  runs: string;
  steps: string | null;
  /** First moment after the month (UTC): every run in it was created before this. */
  end: Date;
}

/** The month partitions of run history, oldest first (not the legacy ones). */
export async function monthPartitions(db: DbOrTx = getDb()): Promise<MonthPartition[]> {
  const rows = await db.execute<{
    runs: string;
    steps: string | null;
    month: number;
    end: Date | string;
  }>(sql`
    with parts as (
      select c.relname
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'automation_runs'::regclass and c.relname ~ '_y[0-9]{4}m[0-9]{2}$'
    ), months as (
      select relname as runs,
        (substring(relname from 'y([0-9]{4})m')::int - 1970) * 12 + substring(relname from 'm([0-9]{2})$')::int - 1 as month
      from parts
    )
    select m.runs, s.relname as steps, m.month, automation_run_month_start(m.month + 1) as "end"
    from months m
    left join pg_class s on s.relname = replace(m.runs, 'automation_runs_', 'automation_run_steps_')
      and s.relkind = 'r'
    order by m.month`);
  return rows.map((r) => ({ runs: r.runs, steps: r.steps, month: Number(r.month), end: new Date(r.end) }));
}

/**
 * The time before which each shop's finished runs may go: the purge built-in's retention where it
 * is on; a shop with it off keeps its history, so it has none. `tenantId`'s is `before`.
 */
function cutoffs(tenantId: string, before: string) {
  return sql`
    select ${tenantId}::uuid as tenant_id, ${before}::timestamptz as cutoff
    union all
    select a.tenant_id, now() - make_interval(days => (n.node->'params'->>'retentionDays')::numeric::int)
    from automations a
    cross join lateral jsonb_array_elements(a.active_graph->'nodes') as n(node)
    where a.builtin_slug = 'purge-run-history' and a.status = 'active' and a.tenant_id <> ${tenantId}::uuid
      and n.node->>'type' = 'auto.action.purge_run_history'`;
}

/**
 * Whether partition `runs` holds only finished runs past their own shop's retention — the only
 * condition under which dropping it loses nothing anyone keeps. One scan of the (old) partition,
 * stopped at the first run that must stay.
 */
async function droppable(tenantId: string, before: string, runs: string): Promise<boolean> {
  const [row] = await getDb().execute<{ blocked: boolean }>(sql`
    with cutoffs as (${cutoffs(tenantId, before)})
    select exists (
      select 1 from ${sql.identifier(runs)} r left join cutoffs c on c.tenant_id = r.tenant_id
      where not coalesce(r.status in ${FINISHED_STATUSES} and coalesce(r.finished_at, r.created_at) < c.cutoff, false)
    ) as blocked`);
  return row?.blocked === false;
}

/** The run ids of month `month`: [lo, hi). */
function bounds(month: number) {
  return {
    lo: sql`automation_run_month_floor(${month}::int)`,
    hi: sql`automation_run_month_floor(${month + 1}::int)`,
  };
}

/**
 * Deletes or unlinks, in batches, what points at the runs of month `month` from tables that are
 * not partitioned: waits, deliveries, run keys (deleted), emails and staff tasks (their run link
 * cleared, as deleting the run would). Once none is left, the partition can be detached.
 */
async function unlinkMonth(db: DbOrTx, month: number, batch: number | null): Promise<void> {
  const { lo, hi } = bounds(month);
  const limit = batch === null ? sql`` : sql`limit ${batch}`;
  const statements = [
    sql`delete from automation_run_waits where id in (
      select id from automation_run_waits where run_id >= ${lo} and run_id < ${hi} ${limit})`,
    sql`delete from action_deliveries where id in (
      select id from action_deliveries where run_id >= ${lo} and run_id < ${hi} ${limit})`,
    sql`update outbox_emails set run_id = null where id in (
      select id from outbox_emails where run_id >= ${lo} and run_id < ${hi} ${limit})`,
    sql`update staff_tasks set run_id = null where id in (
      select id from staff_tasks where run_id >= ${lo} and run_id < ${hi} ${limit})`,
    sql`delete from automation_run_keys where (automation_id, event_id) in (
      select automation_id, event_id from automation_run_keys where run_id >= ${lo} and run_id < ${hi} ${limit})`,
  ];
  for (const statement of statements) {
    for (;;) {
      const rows = await db.execute(sql`${statement} returning 1`);
      if (batch === null || rows.length < batch) break;
    }
  }
}

/**
 * Drops the month partitions that end before `before` and that hold nothing any shop keeps (see
 * `droppable`): first what points at their runs is removed in batches, then one short transaction
 * removes the rest of it, drops the steps' partition and detaches and drops the runs'. A partition
 * that cannot be dropped yet (a run still going, a shop with a longer retention or none, a lock
 * not granted in time) is left for the batched delete and the next purge. Returns the dropped
 * partitions' names.
 */
export async function dropExpiredPartitions(tenantId: string, before: string): Promise<string[]> {
  const dropped: string[] = [];
  for (const part of await monthPartitions()) {
    if (part.end.getTime() > new Date(before).getTime()) break;
    try {
      if (!(await droppable(tenantId, before, part.runs))) continue;
      await unlinkMonth(getDb(), part.month, UNLINK_BATCH);
      await getDb().transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = ${sql.raw(`'${DROP_LOCK_TIMEOUT}'`)}`);
        // Both tables at once, runs first as the engine's transactions take them, so the drop
        // does not upgrade a lock halfway; a deadlock or a timeout only postpones it.
        await tx.execute(sql`lock table automation_runs, automation_run_steps in access exclusive mode`);
        // Whatever was linked since the batches (nothing, normally) goes in the same transaction.
        await unlinkMonth(tx, part.month, null);
        if (part.steps) await tx.execute(sql`drop table ${sql.identifier(part.steps)}`);
        await tx.execute(sql`alter table automation_runs detach partition ${sql.identifier(part.runs)}`);
        await tx.execute(sql`drop table ${sql.identifier(part.runs)}`);
      });
      dropped.push(part.runs);
    } catch (error) {
      // A lock not granted in time, a row linked to the month meanwhile, or another shop's purge
      // that dropped it first: the batched delete still runs, and the next purge looks again.
      log().warn({ err: error }, `Run history partition ${part.runs} was not dropped this time:`);
    }
  }
  return dropped;
}
