/**
 * `npm run bench -- alerts`: one shop with 10,000 active automations and 1,000,000 runs over the
 * last 7 days (8% failed or partial, 1% waiting with a wait each, some of those overdue), seeded
 * set-based in a few statements; 100 automations silent for 8 hours and 10 storming in the last
 * hour. One rule of each kind watches every automation of the shop. Then evaluation ticks are
 * timed as the worker's `alert_evaluate` runs them (`evaluateAlerts`, one transaction), one
 * simulated minute apart: the first (no baselines yet), and 60 more (the baselines fill in at 250
 * a tick). Target (SPEC §5): every tick ≤ 1 s. `BENCH_N` changes the number of runs,
 * `BENCH_AUTOMATIONS` the automations.
 */
import { sql } from "drizzle-orm";
import { createTenant } from "@/lib/auth/tenants";
import { evaluateAlerts, type EvaluationReport } from "@/lib/alerts/evaluate";
import { ALERT_KINDS } from "@/lib/alerts/kinds";
import { getDb } from "@/lib/db/client";
import { benchDatabase, count, percentile, report } from "./harness";

const N = Number(process.env.BENCH_N ?? 1_000_000);
const AUTOMATIONS = Number(process.env.BENCH_AUTOMATIONS ?? 10_000);
const CHUNK = 250_000;
const TICKS = Number(process.env.BENCH_TICKS ?? 60);
const SILENT = 100;
const STORMING = 10;
const TARGET_MS = 1_000;
const WEEK_SECONDS = 7 * 24 * 3600;

const GRAPH = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "a", type: "auto.action.add_tag", params: { tag: "seen" } },
  ],
  edges: [{ id: "e1", source: "t", target: "a" }],
};

/** Status by `g % 100`: mostly succeeded, 8% failed or partial, 1% waiting. */
const STATUS_SQL = `case when g % 100 < 87 then 'succeeded' when g % 100 < 93 then 'failed'
  when g % 100 < 95 then 'partial' when g % 100 = 95 then 'waiting' else 'cancelled' end`;

async function seed(tenantId: string): Promise<void> {
  await getDb().execute(sql`
    insert into automations (tenant_id, name, status, version, draft_graph, active_graph, trigger_events, activated_at)
    select ${tenantId}::uuid, 'Automation ' || i, 'active', 1, ${JSON.stringify(GRAPH)}::jsonb,
      ${JSON.stringify(GRAPH)}::jsonb, '{order.created}', now() - interval '30 days'
    from generate_series(1, ${AUTOMATIONS}) i`);
  await getDb().execute(sql`
    create unlogged table bench_automations as
      select row_number() over (order by id) - 1 as n, id from automations where tenant_id = ${tenantId}::uuid`);
  await getDb().execute(sql`create index on bench_automations (n)`);
  await getDb().execute(sql`
    select automation_run_partition_create(m)
    from generate_series(automation_run_month(now() - interval '8 days'), automation_run_month(now())) m`);
  for (let start = 1; start <= N; start += CHUNK) {
    const end = Math.min(N, start + CHUNK - 1);
    // Spread evenly over the week, newest g last; the first SILENT automations have no run in the
    // last 8 hours.
    await getDb().execute(sql`
      insert into automation_runs (id, tenant_id, automation_id, automation_version, status, event_id,
        trigger_node_id, event, domain, entity_id, legs, started_at, finished_at, resume_at, created_at, updated_at)
      select automation_run_id(t.at), ${tenantId}::uuid, a.id, 1, s.status, 'evt' || g, 't', '{}'::jsonb,
        'order', 'ord_' || g, 1, t.at,
        case when s.status <> 'waiting' then t.at + interval '1 second' end,
        case when s.status = 'waiting' then t.at + interval '1 hour' end, t.at, t.at
      from generate_series(${start}::int, ${end}::int) g
      join bench_automations a on a.n = g % ${AUTOMATIONS}
      cross join lateral (select now() - ((${N} - g)::float8 * ${WEEK_SECONDS} / ${N}) * interval '1 second' as at) t
      cross join lateral (select ${sql.raw(STATUS_SQL)} as status) s
      where not (a.n < ${SILENT} and t.at > now() - interval '8 hours')`);
    console.log(`  seeded ${end.toLocaleString("en-US")} of ${N.toLocaleString("en-US")} runs`);
  }
  // A storm: 300 runs in the last hour for each of STORMING automations (their usual is ~1 an hour).
  await getDb().execute(sql`
    insert into automation_runs (id, tenant_id, automation_id, automation_version, status, event_id,
      trigger_node_id, event, domain, legs, started_at, finished_at, created_at, updated_at)
    select automation_run_id(t.at), ${tenantId}::uuid, a.id, 1, 'succeeded', 'storm' || a.n || '-' || i, 't',
      '{}'::jsonb, 'order', 1, t.at, t.at, t.at, t.at
    from bench_automations a cross join generate_series(1, 300) i
    cross join lateral (select now() - (i * 11) * interval '1 second' as at) t
    where a.n between ${SILENT} and ${SILENT + STORMING - 1}`);
  // Each waiting run's wait; those due more than 30 minutes ago are overdue.
  await getDb().execute(sql`
    insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type,
      leg, event, kind, resume_at)
    select r.tenant_id, r.id, r.automation_id, 1, 'w', 'auto.control.wait', 1, '{}'::jsonb, 'delay', r.resume_at
    from automation_runs r where r.tenant_id = ${tenantId}::uuid and r.status = 'waiting'`);
  for (const table of ["automations", "automation_runs", "automation_run_waits", "automation_run_keys"])
    await getDb().execute(sql.raw(`vacuum analyze ${table}`));
  await getDb().execute(sql`checkpoint`);
}

export async function benchAlerts(): Promise<void> {
  const db = await benchDatabase("alerts");
  try {
    const tenant = await createTenant({ slug: "bench", name: "Bench" });
    const seedStarted = Date.now();
    await seed(tenant.id);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    // One rule of each kind, about every automation of the shop.
    await getDb().execute(sql`
      insert into alert_rules (tenant_id, kind, channel, params, created_by, created_at)
      select ${tenant.id}::uuid, k, '{"type":"email"}'::jsonb,
        case when k = 'storm' then '{"maxRunsPerHour":200}'::jsonb else '{}'::jsonb end, 'bench', now() - interval '1 day'
      from unnest(${`{${ALERT_KINDS.join(",")}}`}::text[]) k`);

    const start = Date.now();
    const reports: { ms: number; report: EvaluationReport }[] = [];
    for (let i = 0; i <= TICKS; i++) {
      const started = performance.now();
      const tick = await evaluateAlerts({ now: new Date(start + i * 60_000) });
      reports.push({ ms: performance.now() - started, report: tick });
    }
    const [first, ...rest] = reports;
    const totals = rest.map((r) => r.ms).sort((a, b) => a - b);
    const metrics: Record<string, number | string | boolean> = {
      automations: AUTOMATIONS,
      runs: await count(sql`select count(*)::int as n from automation_runs`),
      waits: await count(sql`select count(*)::int as n from automation_run_waits`),
      seedSeconds,
      ticks: reports.length,
      firstTickMs: Number(first!.ms.toFixed(1)),
      tickP50Ms: Number(percentile(totals, 50).toFixed(1)),
      tickP95Ms: Number(percentile(totals, 95).toFixed(1)),
      tickMaxMs: Number(Math.max(first!.ms, ...totals).toFixed(1)),
    };
    for (const part of ["baselines", ...ALERT_KINDS] as const) {
      const times = reports.map((r) => r.report.ms[part]).sort((a, b) => a - b);
      metrics[`${part}P50Ms`] = Number(percentile(times, 50).toFixed(1));
      metrics[`${part}MaxMs`] = Number(Math.max(...times).toFixed(1));
    }
    for (const kind of ALERT_KINDS)
      metrics[`${kind}Alerts`] = reports.reduce((sum, r) => sum + r.report.made[kind], 0);
    metrics.baselinesFresh = await count(sql`select count(*)::int as n from alert_baselines`);
    metrics.targetMs = TARGET_MS;
    metrics.meetsTarget = (metrics.tickMaxMs as number) <= TARGET_MS;
    report("alerts", metrics);
  } finally {
    await db.drop();
  }
}
