import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

/**
 * The canvas's "Show performance" (issue 50): per step of an automation over the last `days` shop
 * days, how many runs entered it and, for a step that touches customers, the customers it reached,
 * the conversions attributed to it and their revenue (in the shop's currency, else the one most of
 * its attributed orders are in; other currencies are left out here and shown on the Performance
 * tab). One statement: the automation's runs in the period by its runs index and their steps, and
 * its customers reached and attributed orders from the rollups the Performance tab reads
 * (`automation_reach_days`, `automation_step_days`; see README.md beside this file).
 */
export interface StepPerformance {
  entered: number;
  /** Customers its messages reached; 0 for a step that touches nobody. */
  reached: number;
  conversions: number;
  /** Decimal string in `currency`. */
  revenue: string;
}

export interface CanvasPerformance {
  days: number;
  currency: string | null;
  steps: Record<string, StepPerformance>;
}

export async function canvasPerformance(
  tenantId: string,
  automationId: string,
  days = 30,
): Promise<CanvasPerformance> {
  const [row] = await getDb().execute<{
    currency: string | null;
    steps: ({ node_id: string } & StepPerformance)[] | null;
  }>(sql`
    with p as (
      select (now() at time zone timezone)::date - ${days - 1}::int as first_day,
        ((((now() at time zone timezone)::date - ${days - 1}::int)::timestamp) at time zone timezone) as since
      from tenants where id = ${tenantId}::uuid),
    runs as (
      select r.id, r.trigger_node_id from automation_runs r, p
      where r.tenant_id = ${tenantId}::uuid and r.automation_id = ${automationId}::uuid and r.created_at >= p.since),
    entered as (
      select trigger_node_id as node_id, count(*)::int as n from runs group by 1
      union all
      select split_part(s.node_id, '#', 1), count(distinct s.run_id)::int
      from runs r join automation_run_steps s on s.run_id = r.id and s.tenant_id = ${tenantId}::uuid
      group by 1),
    -- A customer counts once per step, on their first day in the period (the gap reaches back before it).
    touched as (
      select key as node_id, (sum(customers) filter (where gap > day - p.first_day))::int as reached
      from automation_reach_days, p
      where tenant_id = ${tenantId}::uuid and automation_id = ${automationId}::uuid and day >= p.first_day
        and version = 0 and scope = 'step'
      group by 1),
    o as (
      select node_id, nullif(currency, '') as currency, conversions, revenue from automation_step_days s, p
      where s.tenant_id = ${tenantId}::uuid and s.automation_id = ${automationId}::uuid and s.day >= p.first_day
        and s.conversions > 0),
    cur as (
      select coalesce((select currency from attribution_settings where tenant_id = ${tenantId}::uuid),
        (select currency from o group by currency order by sum(conversions) desc, currency limit 1)) as c),
    ordered as (
      select node_id, sum(conversions)::int as conversions, to_char(sum(revenue), 'FM999999999999990.00') as revenue
      from o, cur where o.currency is not distinct from cur.c group by 1),
    nodes as (select node_id from entered union select node_id from touched union select node_id from ordered)
    select (select c from cur) as currency,
      (select json_agg(json_build_object('node_id', n.node_id,
          'entered', coalesce((select sum(e.n) from entered e where e.node_id = n.node_id), 0),
          'reached', coalesce(t.reached, 0), 'conversions', coalesce(o.conversions, 0),
          'revenue', coalesce(o.revenue, '0.00')))
        from nodes n left join touched t on t.node_id = n.node_id left join ordered o on o.node_id = n.node_id) as steps`);
  const steps: Record<string, StepPerformance> = {};
  for (const s of row?.steps ?? [])
    steps[s.node_id] = {
      entered: Number(s.entered),
      reached: s.reached,
      conversions: s.conversions,
      revenue: s.revenue,
    };
  return { days, currency: row?.currency ?? null, steps };
}
