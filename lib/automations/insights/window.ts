import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { RunStatus } from "@/lib/db/schema";
import { OUTCOMES, emptyCounts, outcomeOf, type DayCounts, type OutcomeCounts } from "./outcomes";
import { PLATFORMS, platformCondition, type Platform } from "./platform";

/*
 * Insights: run history read as numbers and pictures (the dashboard, an automation's Insights tab).
 *
 * Terminology
 *   outcome   a run's status as the charts group it: succeeded · nothing (succeeded, no action
 *             taken) · partial · failed · cancelled · waiting · running (queued and running
 *             together: the run is in progress)
 *   day       a calendar day in the shop's time zone (`tenants.timezone`), never UTC's
 *   window    the last N days, today included: from the start of the shop's day N − 1 days ago
 *   platform  whose automations count: `mine` (the merchant's own), `builtin` (the platform's own
 *             periodic jobs, `automations.builtin_slug`), or `all`
 *   reached   a run reached a node when it has a step of that node (any leg, any status); the
 *             actions a code step asked for (`code1#2`) are folded into their code step (`code1`)
 *
 * Every number is aggregated by Postgres (a few statements per widget, each a range scan of an
 * index that starts with the tenant), so a page never carries more than a few dozen rows.
 */

export const tenantId = z.uuid("must be a shop id");

export const platform = z.enum(PLATFORMS, `must be one of ${PLATFORMS.join(", ")}`);

export const andPlatform = (tenant: string, column: SQL, which: Platform) => {
  const condition = platformCondition(tenant, column, which);
  return condition ? sql`and ${condition}` : sql``;
};

interface Window {
  timeZone: string;
  /** Today in the shop's time zone (YYYY-MM-DD). */
  today: string;
  /** The window's first day (YYYY-MM-DD). */
  firstDay: string;
  /** The instant the window starts. */
  from: Date;
  /** Every day of the window, oldest first. */
  days: string[];
}

/** The shop's today and the start of a window of `days` days ending today, read by Postgres in the shop's zone. */
export async function windowOf(tenant: string, days: number, now: Date): Promise<Window> {
  const rows = await getDb().execute<{ tz: string; today: string; first_day: string; from: string }>(sql`
    with shop as (select timezone as tz, (${now.toISOString()}::timestamptz at time zone timezone) as local_now
                  from tenants where id = ${tenant}::uuid)
    select tz,
      to_char(local_now, 'YYYY-MM-DD') as today,
      to_char(date_trunc('day', local_now) - make_interval(days => ${days - 1}), 'YYYY-MM-DD') as first_day,
      ${isoOf(sql`(date_trunc('day', local_now) - make_interval(days => ${days - 1})) at time zone tz`)} as "from"
    from shop`);
  const row = rows[0];
  if (!row) throw new Error("That shop does not exist.");
  return {
    timeZone: row.tz,
    today: row.today,
    firstDay: row.first_day,
    from: new Date(row.from),
    days: daysBetween(row.first_day, row.today),
  };
}

/** Calendar days from `first` to `last`, both included (YYYY-MM-DD, no time zone involved). */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  const day = new Date(`${first}T00:00:00Z`);
  const end = new Date(`${last}T00:00:00Z`).getTime();
  while (day.getTime() <= end && out.length < 400) {
    out.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return out;
}

/** Runs per shop day and status since `from` (one statement, the tenant's or the automation's runs index). */
export async function runsPerDay(
  tenant: string,
  window: Window,
  filter: { automationId?: string; platform: Platform },
): Promise<DayCounts[]> {
  const rows = await getDb().execute<{ day: string; status: RunStatus; nothing: boolean; n: number }>(sql`
    select to_char(date_trunc('day', r.created_at at time zone ${window.timeZone}), 'YYYY-MM-DD') as day,
      r.status, coalesce(r.actions_taken = 0, false) as nothing, count(*)::int as n
    from automation_runs r
    where r.tenant_id = ${tenant}::uuid and r.created_at >= ${window.from.toISOString()}::timestamptz
      ${filter.automationId ? sql`and r.automation_id = ${filter.automationId}::uuid` : sql``}
      ${andPlatform(tenant, sql`r.automation_id`, filter.platform)}
    group by 1, 2, 3`);
  const byDay = new Map(window.days.map((day) => [day, emptyCounts()]));
  for (const row of rows) {
    const counts = byDay.get(row.day);
    if (counts) counts[outcomeOf(row.status, row.nothing ? 0 : null)] += row.n;
  }
  return [...byDay].map(([day, counts]) => ({ day, counts }));
}

export function sumDays(days: DayCounts[]): OutcomeCounts {
  const total = emptyCounts();
  for (const d of days) for (const o of OUTCOMES) total[o] += d.counts[o];
  return total;
}

/** Timestamps leave Postgres as ISO text in UTC: the driver hands raw timestamptz text through. */
export const isoOf = (expr: SQL) => sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
