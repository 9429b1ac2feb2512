import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { AlertKind } from "@/lib/db/schema/alerts";
import { HOURLY_HOLD_MARK } from "@/lib/automations/caps/caps";
import { entityName } from "@/lib/domains/labels";
import { isDomain } from "@/lib/domains/domains";
import { DEFAULT_PARAMS } from "./kinds";
import type { AlertFacts } from "./message";

/**
 * What each kind of rule finds at `now`: one row per rule and automation that should alert, with
 * its dedupe key made here, in SQL, so a window already alerted is skipped by the unique index
 * before anything is built. Every statement starts from the enabled rules of its kind
 * (`alert_rules_enabled_idx`) and reads runs and waits through indexes:
 *
 *   failed_runs       automation_runs_failed_idx (tenant, finished_at) where failed or partial, last hour
 *   silence           alert_baselines + each watched automation's latest run (automation_runs_automation_idx)
 *   storm             automation_runs_tenant_idx (tenant, created_at), last hour; alert_baselines
 *   overdue_waits     automation_run_waits_tenant_pending_idx (tenant, resume_at) where pending
 *   approval_overdue  the same, approvals only
 */

export interface Finding {
  kind: AlertKind;
  ruleId: string;
  tenantId: string;
  automationId: string;
  automationName: string;
  timeZone: string;
  channel: string;
  dedupeKey: string;
  count: number;
  /** Where the runs link starts (the runs page's `from` day). */
  since: Date;
  /**
   * A digest's latest counted finish, as Postgres wrote it (microseconds: a JavaScript Date would
   * round it down and count that run again): the next digest counts after it.
   */
  windowEnd: string | null;
  facts: AlertFacts;
}

const date = (value: string | Date) => (value instanceof Date ? value : new Date(value));

interface Common extends Record<string, unknown> {
  rule_id: string;
  tenant_id: string;
  automation_id: string;
  name: string;
  timezone: string;
  channel: string;
  dedupe_key: string;
}

const unsent = (key: SQL) => sql`not exists (select 1 from alert_history d where d.dedupe_key = ${key})`;

/** Kinds that alert at most once an hour per rule and automation while the trouble lasts. */
function hourlyKey(kind: AlertKind, now: string): SQL {
  return sql`${kind} || ':' || r.id || ':' || a.id || ':' || to_char(date_trunc('hour', ${now}::timestamptz at time zone 'UTC'), 'YYYY-MM-DD"T"HH24')`;
}
const quietHour = (now: string) => sql`not exists (
  select 1 from alert_history q
  where q.rule_id = r.id and q.automation_id = a.id and q.created_at > ${now}::timestamptz - interval '1 hour')`;

export async function findFailedRuns(db: DbOrTx, now: Date): Promise<Finding[]> {
  const at = now.toISOString();
  const rows = await db.execute<
    Common & {
      n: number;
      first: boolean;
      first_at: string;
      last_at: string;
      last_domain: string;
      last_entity_id: string | null;
      last_data: Record<string, unknown> | null;
      last_error: string | null;
    }
  >(sql`
    with rules as (
      select r.id, r.tenant_id, r.automation_id, r.created_at, r.channel ->> 'type' as channel
      from alert_rules r where r.enabled and r.kind = 'failed_runs'
    ),
    touched as (
      select distinct r.id as rule_id, x.automation_id
      from rules r
      join automation_runs x on x.tenant_id = r.tenant_id and x.status in ('failed', 'partial')
        and x.finished_at > greatest(r.created_at, ${at}::timestamptz - interval '1 hour')
        and x.finished_at <= ${at}::timestamptz
        and (r.automation_id is null or x.automation_id = r.automation_id)
    ),
    placed as (
      select t.rule_id, t.automation_id, l.window_end, l.created_at as last_sent
      from touched t
      left join lateral (
        select h.window_end, h.created_at from alert_history h
        where h.rule_id = t.rule_id and h.automation_id = t.automation_id
        order by h.created_at desc limit 1
      ) l on true
      where l.created_at is null or l.created_at <= ${at}::timestamptz - interval '15 minutes'
    ),
    found as (
    select p.rule_id, r.tenant_id, p.automation_id, a.name, t.timezone, r.channel,
      'failed_runs:' || p.rule_id || ':' || p.automation_id || ':' || coalesce(to_char(p.window_end at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), 'first') as dedupe_key,
      count(*)::int as n, (p.last_sent is null) as first, min(x.finished_at) as first_at,
      to_char(max(x.finished_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_at,
      (array_agg(x.id order by x.finished_at desc, x.id desc))[1] as last_run_id
    from placed p
    join rules r on r.id = p.rule_id
    join automations a on a.id = p.automation_id
    join tenants t on t.id = r.tenant_id
    join automation_runs x on x.tenant_id = r.tenant_id and x.automation_id = p.automation_id
      and x.status in ('failed', 'partial')
      and x.finished_at > greatest(r.created_at, ${at}::timestamptz - interval '1 hour', coalesce(p.window_end, '-infinity'))
      and x.finished_at <= ${at}::timestamptz
    group by p.rule_id, r.tenant_id, p.automation_id, a.name, t.timezone, r.channel, p.window_end, p.last_sent
    )
    -- The latest failed run's record and error (its last failed step's, whose words say what
    -- went wrong, else the run's own "1 of 1 actions failed."), by key.
    select f.*, lr.domain as last_domain, lr.entity_id as last_entity_id, e.data as last_data,
      coalesce((
        select s.error from automation_run_steps s
        where s.run_id = lr.id and s.error is not null
        order by s.leg desc, s.position desc limit 1), lr.error) as last_error
    from found f
    join automation_runs lr on lr.id = f.last_run_id
    left join entities e on e.tenant_id = f.tenant_id and e.domain = lr.domain and e.id = lr.entity_id`);
  return rows
    .filter((row) => row.n > 0)
    .map((row) => ({
      ...common("failed_runs", row),
      count: row.n,
      since: date(row.first_at),
      windowEnd: row.last_at,
      facts: {
        kind: "failed_runs",
        count: row.n,
        since: date(row.first_at),
        first: row.first,
        latest: {
          record: recordWords(row.last_domain, row.last_entity_id, row.last_data),
          error: row.last_error,
        },
      },
    }));
}

/** "Order #1022": a run's record as the alert names it; null for a run about no record. */
function recordWords(domain: string, id: string | null, data: Record<string, unknown> | null): string | null {
  if (id === null || !isDomain(domain)) return null;
  return entityName(domain, id, data ?? {});
}

function common(kind: AlertKind, row: Common) {
  return {
    kind,
    ruleId: row.rule_id,
    tenantId: row.tenant_id,
    automationId: row.automation_id,
    automationName: row.name,
    timeZone: row.timezone,
    channel: row.channel,
    dedupeKey: row.dedupe_key,
  };
}

export async function findSilences(db: DbOrTx, now: Date): Promise<Finding[]> {
  const at = now.toISOString();
  const hours = sql`coalesce((r.params ->> 'hours')::int, ${DEFAULT_PARAMS.silenceHours})`;
  // Once per silence: the key is the last run before it, so the next tick finds it sent.
  const key = sql`'silence:' || r.id || ':' || a.id || ':' || to_char(last.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
  const rows = await db.execute<Common & { hours: number; runs: number; last_run: string }>(sql`
    select r.id as rule_id, r.tenant_id, a.id as automation_id, a.name, t.timezone,
      r.channel ->> 'type' as channel, ${key} as dedupe_key, ${hours} as hours, b.runs_7d as runs,
      last.created_at as last_run
    from alert_rules r
    join automations a on a.tenant_id = r.tenant_id and (r.automation_id is null or a.id = r.automation_id)
      and a.status = 'active'
    join alert_baselines b on b.automation_id = a.id and b.runs_7d >= 21
    join tenants t on t.id = r.tenant_id
    cross join lateral (
      select x.created_at from automation_runs x
      where x.tenant_id = a.tenant_id and x.automation_id = a.id and x.created_at <= ${at}::timestamptz
      order by x.created_at desc limit 1
    ) last
    where r.enabled and r.kind = 'silence'
      and last.created_at < ${at}::timestamptz - ${hours} * interval '1 hour'
      and ${unsent(key)}`);
  return rows.map((row) => ({
    ...common("silence", row),
    count: 0,
    since: date(row.last_run),
    windowEnd: null,
    facts: { kind: "silence", perDay: row.runs / 7, lastRunAt: date(row.last_run), hours: row.hours },
  }));
}

export async function findStorms(db: DbOrTx, now: Date): Promise<Finding[]> {
  const at = now.toISOString();
  const key = hourlyKey("storm", at);
  const rows = await db.execute<
    Common & { n: number; held: number; max: number | null; p95: number | null }
  >(sql`
    with rules as (select r.* from alert_rules r where r.enabled and r.kind = 'storm'),
    hour as (
      select x.tenant_id, x.automation_id,
        count(*) filter (where x.held_reason is null or x.released_at is not null)::int as n,
        count(*) filter (where x.status = 'held' and x.held_reason like ${`%${HOURLY_HOLD_MARK}%`})::int as held
      from automation_runs x
      where x.tenant_id in (select tenant_id from rules)
        and x.created_at > ${at}::timestamptz - interval '1 hour' and x.created_at <= ${at}::timestamptz
      group by x.tenant_id, x.automation_id
    )
    select r.id as rule_id, r.tenant_id, a.id as automation_id, a.name, t.timezone,
      r.channel ->> 'type' as channel, ${key} as dedupe_key, h.n, h.held,
      (r.params ->> 'maxRunsPerHour')::int as max, b.hourly_p95 as p95
    from rules r
    join hour h on h.tenant_id = r.tenant_id and (r.automation_id is null or h.automation_id = r.automation_id)
    join automations a on a.id = h.automation_id and a.status <> 'archived'
    join tenants t on t.id = r.tenant_id
    left join alert_baselines b on b.automation_id = a.id
    where (h.held > 0
        or h.n > (r.params ->> 'maxRunsPerHour')::int
        or (b.hourly_p95 is not null and h.n > 5 * greatest(b.hourly_p95, 2)))
      and ${quietHour(at)} and ${unsent(key)}`);
  return rows.map((row) => ({
    ...common("storm", row),
    count: row.n,
    since: new Date(now.getTime() - 3_600_000),
    windowEnd: null,
    facts: { kind: "storm", count: row.n, held: row.held, max: row.max, usual: row.p95 },
  }));
}

export async function findOverdueWaits(db: DbOrTx, now: Date): Promise<Finding[]> {
  const at = now.toISOString();
  const key = hourlyKey("overdue_waits", at);
  const minutes = sql`coalesce((r.params ->> 'minutes')::int, ${DEFAULT_PARAMS.overdueMinutes})`;
  const rows = await db.execute<Common & { n: number; minutes: number; oldest: string }>(sql`
    select r.id as rule_id, r.tenant_id, a.id as automation_id, a.name, t.timezone,
      r.channel ->> 'type' as channel, ${key} as dedupe_key, count(*)::int as n,
      ${minutes} as minutes, min(w.resume_at) as oldest
    from alert_rules r
    join automation_run_waits w on w.tenant_id = r.tenant_id and w.status = 'pending'
      and w.resume_at < ${at}::timestamptz - ${minutes} * interval '1 minute'
      and (r.automation_id is null or w.automation_id = r.automation_id)
    join automations a on a.id = w.automation_id
    join tenants t on t.id = r.tenant_id
    where r.enabled and r.kind = 'overdue_waits' and ${quietHour(at)} and ${unsent(key)}
    group by r.id, r.tenant_id, a.id, a.name, t.timezone, r.params`);
  return rows.map((row) => ({
    ...common("overdue_waits", row),
    count: row.n,
    since: date(row.oldest),
    windowEnd: null,
    facts: { kind: "overdue_waits", count: row.n, minutes: row.minutes },
  }));
}

export async function findOverdueApprovals(db: DbOrTx, now: Date): Promise<Finding[]> {
  const at = now.toISOString();
  const key = hourlyKey("approval_overdue", at);
  const hours = sql`coalesce((r.params ->> 'hours')::int, ${DEFAULT_PARAMS.approvalHours})`;
  const rows = await db.execute<Common & { n: number; oldest: string }>(sql`
    select r.id as rule_id, r.tenant_id, a.id as automation_id, a.name, t.timezone,
      r.channel ->> 'type' as channel, ${key} as dedupe_key, count(*)::int as n, min(w.created_at) as oldest
    from alert_rules r
    join automation_run_waits w on w.tenant_id = r.tenant_id and w.status = 'pending' and w.kind = 'approval'
      and w.decision is null and w.decided_by is null and w.resume_at > ${at}::timestamptz
      and (w.reminded_at <= ${at}::timestamptz or w.created_at < ${at}::timestamptz - ${hours} * interval '1 hour')
      and (r.automation_id is null or w.automation_id = r.automation_id)
    join automations a on a.id = w.automation_id
    join tenants t on t.id = r.tenant_id
    where r.enabled and r.kind = 'approval_overdue' and ${quietHour(at)} and ${unsent(key)}
    group by r.id, r.tenant_id, a.id, a.name, t.timezone`);
  return rows.map((row) => ({
    ...common("approval_overdue", row),
    count: row.n,
    since: date(row.oldest),
    windowEnd: null,
    facts: { kind: "approval_overdue", count: row.n },
  }));
}
