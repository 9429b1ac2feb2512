// Scratch (not committed): EXPLAIN plans of the report's data statement before and after, small seed.
import { sql, type SQL } from "drizzle-orm";
import { createTenant } from "@/lib/auth/tenants";
import { getDb } from "@/lib/db/client";
import { reportDataStatement } from "@/lib/automations/performance/report";
import { benchDatabase } from "./harness";
import { seed } from "./attribution";

const DIM_OF = sql`case grouping(d, node_id, automation_version, branch)
  when 15 then 'all' when 7 then 'day' when 11 then 'step' when 13 then 'version' else 'branch' end`;
const KEY_OF = sql`coalesce(to_char(d, 'YYYY-MM-DD'), node_id, automation_version::text, branch)`;
function oldStatement(range: SQL, tz: string, settingCurrency: string | null): SQL {
  return sql`
    with t as materialized (
      select kind, recipient, node_id, automation_version, branch, (at at time zone ${tz})::date as d
      from automation_touches where ${range}),
    o as materialized (
      select touch_kind, recipient, node_id, automation_version, branch, currency, amount,
        (at at time zone ${tz})::date as d
      from order_attributions where ${range}),
    currencies as (
      select currency, count(*)::int as conversions, to_char(sum(amount), 'FM999999999999990.00') as revenue
      from o where touch_kind = 'message' group by currency),
    cur as (
      select coalesce(${settingCurrency}::text,
        (select currency from currencies order by conversions desc, currency limit 1)) as c),
    main as (select o.* from o, cur where o.touch_kind = 'message' and o.currency is not distinct from cur.c),
    touched as (
      select ${DIM_OF} as dim, ${KEY_OF} as k, count(*)::int as touches, count(distinct recipient)::int as recipients
      from t where kind = 'message'
      group by grouping sets ((), (d), (node_id), (automation_version), (branch))),
    ordered as (
      select ${DIM_OF} as dim, ${KEY_OF} as k, count(*)::int as conversions,
        to_char(sum(amount), 'FM999999999999990.00') as revenue
      from main group by grouping sets ((d), (node_id), (automation_version), (branch))),
    buyers as (
      select branch, count(*)::int as customers, sum(r * r)::text as squares from (
        select branch, recipient, sum(amount) as r from main where branch is not null group by branch, recipient) c
      group by branch),
    entries as (
      select case kind when 'holdout' then 'held_out' else 'treated' end as grp, count(distinct recipient)::int as customers
      from t where kind in ('entered', 'holdout') group by 1),
    per_customer as (
      select case touch_kind when 'holdout' then 'held_out' else 'treated' end as grp, recipient, sum(amount) as revenue
      from o, cur where o.currency is not distinct from cur.c
      group by 1, 2),
    sums as (
      select grp, count(*)::int as conversions, sum(revenue)::text as revenue, sum(revenue * revenue)::text as squares
      from per_customer group by grp),
    holdout as (
      select e.grp, e.customers, coalesce(s.conversions, 0) as conversions, coalesce(s.revenue, '0') as revenue,
        coalesce(s.squares, '0') as squares
      from entries e left join sums s on s.grp = e.grp)
    select json_build_object(
      'currency', (select c from cur),
      'currencies', (select coalesce(json_agg(x order by x.conversions desc, x.currency), '[]') from currencies x),
      'touched', (select coalesce(json_agg(x), '[]') from touched x),
      'ordered', (select coalesce(json_agg(x), '[]') from ordered x),
      'buyers', (select coalesce(json_agg(x), '[]') from buyers x),
      'holdout', (select coalesce(json_agg(x), '[]') from holdout x)) as data`;
}

async function main() {
  const db = await benchDatabase("plans");
  try {
    const tenant = await createTenant({ slug: "plans", name: "Plans" });
    console.log("seed", await seed(tenant.id));
    const [big] = await getDb().execute<{ id: string }>(sql`select id from bench_automations where n = 0`);
    const [p] = await getDb().execute<{ from: string; to: string; start: string; end: string }>(sql`
      with shop as (select timezone as tz, (now() at time zone timezone)::date as today from tenants where id = ${tenant.id}::uuid)
      select to_char(today - 29, 'YYYY-MM-DD') as from, to_char(today, 'YYYY-MM-DD') as to,
        ((today - 29)::timestamp at time zone tz)::text as start, ((today + 1)::timestamp at time zone tz)::text as end from shop`);
    const range = sql`tenant_id = ${tenant.id}::uuid and automation_id = ${big!.id}::uuid
      and at >= ${p!.start}::timestamptz and at < ${p!.end}::timestamptz`;
    const show = async (label: string, statement: SQL) => {
      for (let i = 0; i < 3; i++) await getDb().execute(sql`explain (analyze) ${statement}`);
      const rows = await getDb().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers, costs off) ${statement}`);
      console.log(`\n==== ${label}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
    };
    await show("before", oldStatement(range, "UTC", null));
    await show("after", reportDataStatement({ tenantId: tenant.id, automationId: big!.id, ...p!, version: null, settingCurrency: null, splits: false, holdoutPercent: 0 }));
    await show("after, holdout", reportDataStatement({ tenantId: tenant.id, automationId: big!.id, ...p!, version: null, settingCurrency: null, splits: false, holdoutPercent: 10 }));
  } finally {
    await db.drop();
  }
}
void main().then(() => process.exit(0));
