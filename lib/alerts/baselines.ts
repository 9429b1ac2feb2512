import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";

/**
 * Keeps `alert_baselines` fresh for the automations that silence and storm rules watch: each
 * automation's runs in the last 7 days and the 95th percentile of its 168 hourly counts (empty
 * hours count as 0). A baseline is at most an hour old; each tick refreshes the stalest `SLICE`
 * (missing ones first), so no tick reads a week of every automation's runs: 10,000 watched
 * automations are all fresh within the hour at 250 a minute.
 *
 * Until an automation has a baseline, only the rules that need none judge it (a storm over a set
 * number or a cap; failed runs; waits): silence and "5 times the usual" wait for its first.
 */
export const SLICE = 250;

/** Hours a week: the baseline's p95 is the 9th busiest hour (rank 160 of 168 from the quietest). */
const RANK_FROM_TOP = 168 - Math.ceil(0.95 * 168) + 1;

export async function refreshBaselines(db: DbOrTx, now: Date): Promise<number> {
  const at = now.toISOString();
  const rows = await db.execute<{ n: number }>(sql`
    with stale as (
      select a.id, a.tenant_id
      from automations a
      left join alert_baselines b on b.automation_id = a.id
      where a.status = 'active'
        and (b.computed_at is null or b.computed_at < ${at}::timestamptz - interval '1 hour')
        and exists (
          select 1 from alert_rules r
          where r.enabled and r.kind in ('silence', 'storm') and r.tenant_id = a.tenant_id
            and (r.automation_id is null or r.automation_id = a.id))
      order by b.computed_at nulls first
      limit ${SLICE}
    ),
    hourly as (
      select s.id, date_trunc('hour', x.created_at) as hour, count(*)::int as n
      from stale s
      join automation_runs x on x.tenant_id = s.tenant_id and x.automation_id = s.id
        and x.created_at > ${at}::timestamptz - interval '7 days' and x.created_at <= ${at}::timestamptz
      group by s.id, 2
    ),
    stats as (
      select s.id, s.tenant_id, coalesce(sum(h.n), 0)::int as runs,
        coalesce((array_agg(h.n order by h.n desc) filter (where h.n is not null))[${RANK_FROM_TOP}], 0) as p95
      from stale s left join hourly h on h.id = s.id
      group by s.id, s.tenant_id
    ),
    saved as (
      insert into alert_baselines (automation_id, tenant_id, runs_7d, hourly_p95, computed_at)
      select id, tenant_id, runs, p95, ${at}::timestamptz from stats
      on conflict (automation_id) do update
        set runs_7d = excluded.runs_7d, hourly_p95 = excluded.hourly_p95, computed_at = excluded.computed_at
      returning 1
    )
    select count(*)::int as n from saved`);
  return rows[0]?.n ?? 0;
}
