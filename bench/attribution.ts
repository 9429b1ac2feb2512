/**
 * `npm run bench -- attribution`: one shop with 1,000 automations, 1,000,000 runs, 1,000,000
 * touches over the last 30 days (200,000 customers) and 500,000 attributed orders, seeded
 * set-based with generate_series, with production's triggers on (`seed`; each part timed). One
 * automation is big: a tenth of all touches and orders are its (100,000 touches in the month, 20,000
 * customers), the case a report that counts customers from rows finds hardest; a second one as big
 * holds a tenth of its customers out (a twentieth of its touches are held-out entries).
 * `npm run bench -- attribution --small` (or `BENCH_SMALL=1`) seeds a twentieth of it.
 * Then, timed:
 *
 * - attributing an order: `EXPLAIN (ANALYZE)` of recording an `order.paid` event, whose trigger
 *   (`attribute_order`) finds the customer's latest touch and writes the attribution; the trigger's
 *   time and the statement's execution time are Postgres time, target ≤ 2 ms at p95;
 * - the Performance tab's report (`automationPerformance`, both its statements and the split
 *   maths) for random automations, wall time from this process; its data statement's Postgres
 *   time (planning and execution), target p95 ≤ 50 ms, for random automations and the big one;
 *   and the big one with a holdout, whose per-customer sums read its orders;
 * - writing a touch (the engine's hot path, with its rollups' statement trigger);
 * - `decideSplit` alone (its Monte Carlo) for a two-branch split, so its share of a load shows.
 *
 * Runs are seeded so the tables are their real size, though neither attribution nor the report
 * reads them. `BENCH_RUNS`, `BENCH_TOUCHES`, `BENCH_ORDERS` and `BENCH_SAMPLES` set the sizes.
 */
import { sql } from "drizzle-orm";
import { createTenant } from "@/lib/auth/tenants";
import { getDb } from "@/lib/db/client";
import { automationPerformance, reportDataStatement } from "@/lib/automations/performance/report";
import { attributedRevenueSummary } from "@/lib/automations/performance/earners";
import { decideSplit } from "@/lib/automations/performance/split-stats";
import { benchDatabase, count, percentile, report } from "./harness";

const SMALL = process.argv.includes("--small") || process.env.BENCH_SMALL === "1";
const RUNS = Number(process.env.BENCH_RUNS ?? (SMALL ? 50_000 : 1_000_000));
const TOUCHES = Number(process.env.BENCH_TOUCHES ?? (SMALL ? 50_000 : 1_000_000));
const ORDERS = Number(process.env.BENCH_ORDERS ?? (SMALL ? 25_000 : 500_000));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const AUTOMATIONS = 1_000;
const CUSTOMERS = 200_000;
const MONTH_SECONDS = 30 * 24 * 3600;

const GRAPH = {
  nodes: [
    { id: "t", type: "auto.trigger.customer_created", params: {} },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject: "Hi", body: "." },
    },
  ],
  edges: [{ id: "e1", source: "t", target: "mail" }],
};

/**
 * Which automation a generated row belongs to: every tenth row the big one (n = 0), every tenth the
 * big one with a holdout (n = 1), else round robin over the others.
 */
const BIG = sql.raw(`case when g % 10 = 5 then 0 when g % 10 = 6 then 1 else 2 + g % ${AUTOMATIONS - 2} end`);
/** A touch's kind: a twentieth held-out entries and a twentieth treated ones, for the others and the big one with a holdout. */
const KIND = sql.raw(`case when g % 20 = 0 or g % 200 = 6 then 'holdout'
  when g % 20 = 1 or g % 200 = 16 then 'entered' else 'message' end`);

/** How long each part of the seed took, in seconds. */
export type SeedTimes = Record<"automations" | "runs" | "touches" | "orders" | "indexes" | "vacuum", number>;

/**
 * Seeds the shop set-based (INSERT … SELECT from generate_series), with every trigger production
 * has: the runs' key trigger (per row) and the rollups' statement triggers, which take the
 * million touches and the half million attributions as one set each. The two tables' secondary
 * indexes are built after their rows (the same definitions, read from pg_indexes), as a bulk load
 * does; the rollups' keys are in place throughout, their triggers upsert into them.
 */
export async function seed(tenantId: string): Promise<SeedTimes> {
  const db = getDb();
  const times = {} as SeedTimes;
  let mark = performance.now();
  const lap = (part: keyof SeedTimes) => {
    const now = performance.now();
    times[part] = Number(((now - mark) / 1000).toFixed(1));
    mark = now;
  };
  await db.execute(sql`
    insert into automations (tenant_id, name, status, version, draft_graph, active_graph, trigger_events, holdout_percent)
    select ${tenantId}::uuid, 'Automation ' || i, 'active', 3, ${JSON.stringify(GRAPH)}::jsonb,
      ${JSON.stringify(GRAPH)}::jsonb, '{customer.created}', case when i % 10 = 0 then 10 else 0 end
    from generate_series(1, ${AUTOMATIONS}) i`);
  await db.execute(sql`
    create unlogged table bench_automations as
      select row_number() over (order by id) - 1 as n, id from automations where tenant_id = ${tenantId}::uuid`);
  await db.execute(sql`create index on bench_automations (n)`);
  // The big automation holds nobody out: its report is the rollups' alone; the second big one holds
  // a tenth out, so its report also reads its attributed orders for the per-customer sums.
  await db.execute(sql`
    update automations a set holdout_percent = case b.n when 0 then 0 else 10 end
    from bench_automations b where b.id = a.id and b.n < 2`);
  lap("automations");
  await db.execute(sql`
    insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id, event,
      domain, entity_id, legs, started_at, finished_at, duration_ms, actions_taken)
    select ${tenantId}::uuid, a.id, 1 + g % 3, 'succeeded', 'bench-run-' || g, 't',
      jsonb_build_object('id', 'bench-run-' || g, 'type', 'customer.created'), 'customer', 'c' || (g % ${CUSTOMERS}),
      1, now(), now(), 12, 1
    from generate_series(1, ${RUNS}) g join bench_automations a on a.n = g % ${AUTOMATIONS}`);
  lap("runs");
  const secondary = await db.execute<{ indexname: string; indexdef: string }>(sql`
    select i.indexname, i.indexdef from pg_indexes i
    where i.schemaname = 'public' and i.tablename in ('automation_touches', 'order_attributions')
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`);
  for (const index of secondary) await db.execute(sql.raw(`drop index "${index.indexname}"`));
  await db.transaction(async (tx) => {
    // The triggers' set-based statements sort and hash a million rows: room to do it in memory.
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`
      insert into automation_touches (tenant_id, kind, customer_id, email, recipient, automation_id, automation_version,
        run_id, node_id, leg, at)
      select ${tenantId}::uuid, ${KIND},
        'c' || (g % ${CUSTOMERS}), 'c' || (g % ${CUSTOMERS}) || '@example.com', 'c' || (g % ${CUSTOMERS}) || '@example.com',
        a.id, 1 + g % 3, gen_random_uuid(), case when ${KIND} = 'message' then 'mail' else 't' end, 1,
        now() - ((${TOUCHES} - g)::float8 * ${MONTH_SECONDS} / ${TOUCHES}) * interval '1 second'
      from generate_series(1, ${TOUCHES}) g join bench_automations a on a.n = ${BIG}`);
  });
  lap("touches");
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`
      insert into order_attributions (tenant_id, order_id, amount, currency, customer_id, email, touch_id, touch_kind,
        recipient, automation_id, automation_version, run_id, node_id, touched_at, at)
      select ${tenantId}::uuid, 'o' || g, (500 + g % 20000) / 100.0, case when g % 25 = 0 then 'USD' else 'EUR' end,
        'c' || (g % ${CUSTOMERS}), 'c' || (g % ${CUSTOMERS}) || '@example.com', g,
        case when g % 20 = 0 or g % 200 = 6 then 'holdout' else 'message' end, 'c' || (g % ${CUSTOMERS}) || '@example.com', a.id,
        1 + g % 3, gen_random_uuid(), 'mail', t.at - interval '1 hour', t.at
      from generate_series(1, ${ORDERS}) g join bench_automations a on a.n = ${BIG}
      cross join lateral (select now() - ((${ORDERS} - g)::float8 * ${MONTH_SECONDS} / ${ORDERS}) * interval '1 second' as at) t`);
  });
  lap("orders");
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    for (const index of secondary) await tx.execute(sql.raw(index.indexdef));
  });
  lap("indexes");
  for (const table of [
    "automations",
    "automation_runs",
    "automation_touches",
    "order_attributions",
    "automation_revenue_days",
    "automation_step_days",
    "automation_reach_members",
    "automation_reach_days",
  ])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  lap("vacuum");
  return times;
}

interface Explained {
  "Execution Time": number;
  "Planning Time": number;
  Triggers?: { "Trigger Name": string; Time: number }[];
}

export async function benchAttribution(): Promise<void> {
  // The full seed takes longer than a pooled connection's default life (30–60 minutes): keep them.
  process.env.DB_MAX_LIFETIME_SECONDS ??= "86400";
  const db = await benchDatabase("attribution");
  try {
    const tenant = await createTenant({ slug: "bench", name: "Bench" });
    const seedStarted = Date.now();
    const seedTimes = await seed(tenant.id);
    const seedSeconds = (Date.now() - seedStarted) / 1000;

    // Attributing: an order.paid about a new order of a random customer, half by id, half by email only.
    const statement: number[] = [];
    const trigger: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const customer = `c${Math.floor(Math.random() * CUSTOMERS)}`;
      const payload = JSON.stringify({
        total: "59.90",
        currency: "EUR",
        email: `${customer}@example.com`,
        ...(i % 2 === 0 ? { customerId: customer } : {}),
      });
      const [plan] = await getDb().execute<{ "QUERY PLAN": Explained[] }>(sql`
        explain (analyze, format json)
        insert into events (tenant_id, id, type, domain, entity_id, payload)
        values (${tenant.id}::uuid, ${`bench-evt-${i}`}, 'order.paid', 'order', ${`bench-order-${i}`}, ${payload}::jsonb)`);
      const explained = plan!["QUERY PLAN"][0]!;
      statement.push(explained["Execution Time"]);
      trigger.push(
        explained.Triggers?.find((t) => t["Trigger Name"] === "events_attribute_order")?.Time ?? 0,
      );
    }
    statement.sort((a, b) => a - b);
    trigger.sort((a, b) => a - b);

    // The report, for random automations, the last 30 days.
    const all = await getDb().execute<{ id: string; n: number }>(
      sql`select id, n::int as n from bench_automations`,
    );
    const ids = all.filter((r) => r.n > 1).map((r) => r.id);
    const big = all.find((r) => r.n === 0)!.id;
    const bigHoldout = all.find((r) => r.n === 1)!.id;
    const timeReports = async (pick: () => string, samples: number) => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        await automationPerformance(tenant.id, pick(), {});
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    await timeReports(() => ids[0]!, 5); // warm the pool and the plan
    const reports = await timeReports(
      () => ids[Math.floor(Math.random() * ids.length)]!,
      Math.min(SAMPLES, 200),
    );
    const bigReports = await timeReports(() => big, 20);

    // The same report's data statement in Postgres (planning and execution), the machine's other
    // load aside: what the 50 ms target is about, measured where a busy machine distorts it least.
    const [today] = await getDb().execute<{ from: string; to: string; start: string; end: string }>(sql`
      with shop as (select timezone as tz, (now() at time zone timezone)::date as today from tenants
        where id = ${tenant.id}::uuid)
      select to_char(today - 29, 'YYYY-MM-DD') as from, to_char(today, 'YYYY-MM-DD') as to,
        ((today - 29)::timestamp at time zone tz)::text as start, ((today + 1)::timestamp at time zone tz)::text as end
      from shop`);
    const explainReport = async (
      pick: () => string,
      samples: number,
      needs: { splits: boolean; holdoutPercent: number } = { splits: false, holdoutPercent: 0 },
    ) => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const statement = reportDataStatement({
          tenantId: tenant.id,
          automationId: pick(),
          ...today!,
          version: null,
          settingCurrency: null,
          ...needs,
        });
        const [plan] = await getDb().execute<{ "QUERY PLAN": Explained[] }>(
          sql`explain (analyze, format json) ${statement}`,
        );
        const explained = plan!["QUERY PLAN"][0]!;
        times.push(explained["Planning Time"] + explained["Execution Time"]);
      }
      return times.sort((a, b) => a - b);
    };
    const reportsPg = await explainReport(
      () => ids[Math.floor(Math.random() * ids.length)]!,
      Math.min(SAMPLES, 200),
    );
    const bigReportsPg = await explainReport(() => big, 20);
    // The big automation with a holdout (as with a split): the per-customer sums read its orders.
    const bigHoldoutReportsPg = await explainReport(() => bigHoldout, 20, {
      splits: false,
      holdoutPercent: 10,
    });

    // Writing a touch (the engine's hot path): one message of the big automation to a customer it
    // has reached before, its rollups kept by the statement trigger; Postgres time.
    const touchWrites: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const customer = `c${5 + 10 * Math.floor(Math.random() * (CUSTOMERS / 10))}`;
      const [plan] = await getDb().execute<{ "QUERY PLAN": Explained[] }>(sql`
        explain (analyze, format json)
        insert into automation_touches (tenant_id, kind, customer_id, email, recipient, automation_id,
          automation_version, run_id, node_id, leg)
        values (${tenant.id}::uuid, 'message', ${customer}, ${`${customer}@example.com`}, ${`${customer}@example.com`},
          ${big}::uuid, 3, gen_random_uuid(), 'mail', 1)`);
      touchWrites.push(plan!["QUERY PLAN"][0]!["Execution Time"]);
    }
    touchWrites.sort((a, b) => a - b);

    // The dashboard's card (the rollup).
    const dashboard: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await attributedRevenueSummary(tenant.id);
      dashboard.push(performance.now() - started);
    }
    dashboard.sort((a, b) => a - b);

    // The split maths alone: two branches of 5,000 customers each, 4 % and 4.6 % converting.
    const splitTimes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      decideSplit([
        { id: "a", label: "A", entered: 5000 + i, conversions: 200, revenue: 9000, revenueSquares: 600_000 },
        {
          id: "b",
          label: "B",
          entered: 5000,
          conversions: 230 + i,
          revenue: 10_500,
          revenueSquares: 700_000,
        },
      ]);
      splitTimes.push(performance.now() - started);
    }
    splitTimes.sort((a, b) => a - b);
    const metrics = {
      small: SMALL,
      runs: await count(sql`select count(*)::int as n from automation_runs`),
      touches: await count(sql`select count(*)::int as n from automation_touches`),
      attributions: await count(sql`select count(*)::int as n from order_attributions`),
      attributedNow: await count(
        sql`select count(*)::int as n from order_attributions where order_id like 'bench-order-%'`,
      ),
      seedSeconds,
      ...Object.fromEntries(Object.entries(seedTimes).map(([k, v]) => [`seed_${k}_s`, v])),
      attributeP50Ms: Number(percentile(statement, 50).toFixed(3)),
      attributeP95Ms: Number(percentile(statement, 95).toFixed(3)),
      attributeTriggerP95Ms: Number(percentile(trigger, 95).toFixed(3)),
      reportP50Ms: Number(percentile(reports, 50).toFixed(1)),
      reportP95Ms: Number(percentile(reports, 95).toFixed(1)),
      reportPostgresP50Ms: Number(percentile(reportsPg, 50).toFixed(2)),
      reportPostgresP95Ms: Number(percentile(reportsPg, 95).toFixed(2)),
      bigAutomationTouches: await count(
        sql`select count(*)::int as n from automation_touches where automation_id = ${big}::uuid`,
      ),
      bigHoldoutOrders: await count(
        sql`select count(*)::int as n from order_attributions where automation_id = ${bigHoldout}::uuid`,
      ),
      bigReportP50Ms: Number(percentile(bigReports, 50).toFixed(1)),
      bigReportP95Ms: Number(percentile(bigReports, 95).toFixed(1)),
      bigReportPostgresP50Ms: Number(percentile(bigReportsPg, 50).toFixed(2)),
      bigReportPostgresP95Ms: Number(percentile(bigReportsPg, 95).toFixed(2)),
      bigHoldoutReportPostgresP50Ms: Number(percentile(bigHoldoutReportsPg, 50).toFixed(2)),
      bigHoldoutReportPostgresP95Ms: Number(percentile(bigHoldoutReportsPg, 95).toFixed(2)),
      touchWriteP50Ms: Number(percentile(touchWrites, 50).toFixed(3)),
      touchWriteP95Ms: Number(percentile(touchWrites, 95).toFixed(3)),
      reachRows: await count(sql`select count(*)::int as n from automation_reach_days`),
      reachMembers: await count(sql`select count(*)::int as n from automation_reach_members`),
      dashboardP50Ms: Number(percentile(dashboard, 50).toFixed(1)),
      dashboardP95Ms: Number(percentile(dashboard, 95).toFixed(1)),
      decideSplitP50Ms: Number(percentile(splitTimes, 50).toFixed(2)),
      decideSplitP95Ms: Number(percentile(splitTimes, 95).toFixed(2)),
      // The report's target is judged on its Postgres time: wall time on a shared 2-core machine
      // measures the other builds as much as the report.
      meetsTarget:
        percentile(statement, 95) <= 2 &&
        percentile(reportsPg, 95) <= 50 &&
        percentile(bigReportsPg, 95) <= 50,
    };
    report("attribution", metrics);
  } finally {
    await db.drop();
  }
}
