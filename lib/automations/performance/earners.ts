import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

/**
 * The dashboard's "Does it pay" card (issue 50): the automations' attributed revenue over the last
 * 30 shop days (today included) and the top five earners, read from the per-day rollup
 * `automation_revenue_days` (at most days × automations × currencies rows for the shop, however
 * many orders came) in one statement. Money stays a decimal string summed by Postgres; the total is
 * in the shop's currency (Settings → Automations, else the one most attributed orders are in) and
 * other currencies are listed apart, never added in.
 */
export interface AttributedRevenueSummary {
  days: number;
  /** The shop's attribution window, for the empty state's sentence. */
  windowDays: number;
  currency: string | null;
  conversions: number;
  /** Decimal string, exact: "1240.50". */
  revenue: string;
  otherCurrencies: { currency: string | null; conversions: number; revenue: string }[];
  /** The top five automations by attributed revenue in `currency`, highest first. */
  top: { automationId: string; name: string; conversions: number; revenue: string }[];
}

export const SUMMARY_DAYS = 30;

export async function attributedRevenueSummary(tenantId: string): Promise<AttributedRevenueSummary> {
  const [row] = await getDb().execute<{ data: Omit<AttributedRevenueSummary, "days"> }>(sql`
    with shop as (select (now() at time zone timezone)::date as today from tenants where id = ${tenantId}::uuid),
    r as (
      select d.automation_id, d.currency, d.conversions, d.revenue from automation_revenue_days d, shop
      where d.tenant_id = ${tenantId}::uuid and d.day > shop.today - ${SUMMARY_DAYS}::int and d.day <= shop.today),
    currencies as (
      select currency, sum(conversions)::int as conversions, sum(revenue) as revenue from r group by currency),
    cur as (
      select coalesce((select currency from attribution_settings where tenant_id = ${tenantId}::uuid),
        (select currency from currencies order by conversions desc, currency limit 1)) as c),
    top as (
      select r.automation_id, a.name, sum(r.conversions)::int as conversions, sum(r.revenue) as revenue
      from r join cur on r.currency = coalesce(cur.c, '')
        join automations a on a.tenant_id = ${tenantId}::uuid and a.id = r.automation_id
      group by r.automation_id, a.name order by sum(r.revenue) desc, a.name limit 5)
    select json_build_object(
      'windowDays', coalesce((select window_days from attribution_settings where tenant_id = ${tenantId}::uuid), 5),
      'currency', (select nullif(c, '') from cur),
      'conversions', coalesce((select x.conversions from currencies x, cur where x.currency = coalesce(cur.c, '')), 0),
      'revenue', coalesce((select to_char(x.revenue, 'FM999999999999990.00') from currencies x, cur
        where x.currency = coalesce(cur.c, '')), '0.00'),
      'otherCurrencies', (select coalesce(json_agg(json_build_object('currency', nullif(x.currency, ''),
          'conversions', x.conversions, 'revenue', to_char(x.revenue, 'FM999999999999990.00'))
          order by x.conversions desc, x.currency), '[]')
        from currencies x, cur where x.currency <> coalesce(cur.c, '')),
      'top', (select coalesce(json_agg(json_build_object('automationId', t.automation_id, 'name', t.name,
          'conversions', t.conversions, 'revenue', to_char(t.revenue, 'FM999999999999990.00'))
          order by t.revenue desc, t.name), '[]') from top t)) as data`);
  return { days: SUMMARY_DAYS, ...row!.data };
}
