import { sql, type SQL } from "drizzle-orm";

/**
 * Fair share between shops on one graphile-worker queue (lib/automations/README.md, "Fair share").
 *
 * Terminology
 * - backlog work: what a shop queues in bulk and nobody waits on to the second: a run's first leg
 *   (`automation_execute`), a store delivery, a schedule's fan-out. Its jobs carry the shop
 *   (`payload.tenantId`) and a tag.
 * - due work: what must start at its time (a wait's resume, a later step, an email, an alert) and
 *   the platform's maintenance: it goes before every backlog (a lower `priority`).
 * - tag: a backlog job's place in the round, kept in graphile-worker's `run_at`. graphile-worker
 *   serves available jobs by `priority, run_at`, so the tags decide who is next.
 * - slot: the tag distance between two jobs of one shop: 1 ms divided by the shop's weight.
 * - weight: a shop's share (`tenants.queue_weight`, default 1), also carried in its jobs'
 *   payload (`weight`) for the worker's batches (engine/batcher.ts), which take legs in turn.
 * - head: the smallest tag still waiting: the round's "now" (virtual time).
 *
 * Start-time fair queueing (Goyal et al., 1996) over shops: a shop's next job is tagged one slot
 * after its own newest waiting job, and never before the head. A shop with nothing waiting joins
 * at the head, so its job is next whatever another shop has queued; two shops with backlogs
 * interleave one job each (two for a weight of 2); one shop alone is served at full speed, as
 * nothing else is waiting. The unit is the shop: fifty automations, or events, schedules and
 * deliveries at once, all queue behind the same shop's newest tag.
 *
 * Tags sit a day in the past (`HORIZON`), so every tag is due at once (graphile-worker takes only
 * jobs with `run_at <= now()`) while still sorting before any job due at a real time. A shop's
 * backlog would need 86 million jobs to reach the present.
 */
export const HORIZON = "1 day";

/** Backlog jobs' priority; due work goes first (graphile-worker serves the lowest first). */
export const BACKLOG_PRIORITY = 0;
export const DUE_PRIORITY = -1;
/** The crontab's maintenance (sweeping dead workers first of all). */
export const MAINTENANCE_PRIORITY = -2;

/**
 * Installed after graphile-worker's own migrations (lib/migrate.ts), idempotent:
 * - `tillflow_fair_slot(tenant)`: 1 ms divided by the shop's `queue_weight`;
 * - `tillflow_fair_start(tenant)`: the tag of the shop's next backlog job;
 * - an index on the waiting backlog by shop and tag, for the shop's newest tag.
 * Tags younger than the horizon's half are real due times (a legacy job), never a head.
 */
export const INSTALL_FAIR_SHARE = [
  `create index concurrently if not exists tillflow_jobs_backlog_by_shop
     on graphile_worker._private_jobs ((payload->>'tenantId'), run_at)
     where is_available and priority = ${BACKLOG_PRIORITY}`,
  `create or replace function tillflow_fair_slot(p_tenant text) returns interval
     language sql stable as $$
       select interval '1 millisecond' / coalesce(
         (select t.queue_weight from tenants t where t.id = p_tenant::uuid), 1)
     $$`,
  `create or replace function tillflow_fair_start(p_tenant text) returns timestamptz
     language sql stable as $$
       select greatest(
         (select j.run_at from graphile_worker._private_jobs j
           where j.is_available and j.priority = ${BACKLOG_PRIORITY} and j.payload->>'tenantId' = p_tenant
           order by j.payload->>'tenantId', j.run_at desc limit 1) + tillflow_fair_slot(p_tenant),
         coalesce(
           (select j.run_at from graphile_worker._private_jobs j
             where j.is_available and j.priority = ${BACKLOG_PRIORITY}
               and j.run_at < now() - interval '${HORIZON}' / 2
             order by j.priority, j.run_at limit 1),
           now() - interval '${HORIZON}'))
     $$`,
];

/**
 * Tags for the rows of one statement, all of one shop (`tenant`, a text expression): `start`, `slot` and `weight` to join
 * (`fair`); the n-th row's tag is `start + (n - 1) * slot`.
 */
export function fairTagsSql(tenant: SQL): SQL {
  return sql`(select tillflow_fair_start(${tenant}) as start, tillflow_fair_slot(${tenant}) as slot,
    coalesce((select t.queue_weight from tenants t where t.id = (${tenant})::uuid), 1) as weight)`;
}
