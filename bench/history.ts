/**
 * `npm run bench -- history`: 1,000,000 runs (each with its steps; the waiting ones with their wait)
 * seeded set-based, then the runs API timed through its route handler — the same code path as
 * `GET /api/v1/runs`: API key, caller, zod, `listRuns`, JSON — for the first page and for keyset
 * pages deep in the history, unfiltered, by automation, by status, and by both.
 * Target: p95 ≤ 20 ms in every case (issue 17; SPEC §5 allows 50). `BENCH_N` changes the number
 * of runs (`BENCH_N=10000000` for the 10 M variant).
 *
 * Run history is partitioned by month (lib/db/schema/PARTITIONS.md): each run's id is made for its
 * own creation time (`automation_run_id(at)`), so one run a second fills ~12 days' worth of month
 * partitions at 1 M and ~4 months' at 10 M, as a live shop's history would.
 */
import { sql } from "drizzle-orm";
import { GET as runsRoute } from "@/app/api/v1/runs/route";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant } from "@/lib/auth/tenants";
import { encodePreciseCursor } from "@/lib/pagination/precise-cursor";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { getDb } from "@/lib/db/client";
import { benchDatabase, percentile, report } from "./harness";

const N = Number(process.env.BENCH_N ?? 1_000_000);
const AUTOMATIONS = 10;
const CHUNK = 250_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const LIMIT = 50;
const TARGET_P95_MS = 20;

//  Each run: trigger ─▶ add_tag ─▶ Wait 1 hour ─▶ add_tag; finished runs took both legs.
const GRAPH = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "a", type: "auto.action.add_tag", params: { tag: "seen" } },
    { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
    { id: "b", type: "auto.action.add_tag", params: { tag: "followed-up" } },
  ],
  edges: [
    { id: "e1", source: "t", target: "a" },
    { id: "e2", source: "a", target: "w" },
    { id: "e3", source: "w", target: "b" },
  ],
};

/** Status by `g % 100`: mostly succeeded, a realistic tail of the rest. */
const STATUS_SQL = `case
  when g % 100 < 70 then 'succeeded' when g % 100 < 80 then 'waiting' when g % 100 < 88 then 'failed'
  when g % 100 < 93 then 'partial' when g % 100 < 97 then 'cancelled' when g % 100 < 99 then 'running'
  else 'queued' end`;

async function seed(tenantId: string, automationIds: string[]): Promise<void> {
  const ids = `{${automationIds.join(",")}}`;
  // The partitions of every month the history spans (a live database made them month by month).
  await getDb().execute(sql`
    select automation_run_partition_create(m)
    from generate_series(automation_run_month(now() - ${N} * interval '1 second'), automation_run_month(now())) m`);
  for (let start = 1; start <= N; start += CHUNK) {
    const end = Math.min(N, start + CHUNK - 1);
    // One run a second, oldest first, so the newest run is g = N; runs, steps and waits of a
    // chunk in one statement each.
    await getDb().execute(sql`
      insert into automation_runs (id, tenant_id, automation_id, automation_version, status, event_id,
        trigger_node_id, event, domain, entity_id, legs, started_at, finished_at, duration_ms, resume_at,
        reason, error, created_at, updated_at)
      select automation_run_id(at), ${tenantId}::uuid, (${ids}::uuid[])[1 + g % ${AUTOMATIONS}], 1, s.status, 'evt' || g, 't',
        jsonb_build_object('id', 'evt' || g, 'type', 'order.created', 'domain', 'order', 'entityId',
          'ord_' || (g % 50000), 'entityStatus', 'pending', 'payload', '{}'::jsonb, 'occurredAt', at),
        'order', 'ord_' || (g % 50000), case when s.status = 'waiting' then 1 else 2 end, at,
        case when s.status in ('succeeded', 'partial', 'failed', 'cancelled') then at + interval '1 hour' end,
        case when s.status in ('succeeded', 'partial', 'failed', 'cancelled') then 3600123 end,
        case when s.status = 'waiting' then now() + (g % 3600) * interval '1 second' end,
        case when s.status = 'cancelled' then 'The automation was paused while this run was waiting.' end,
        case when s.status in ('failed', 'partial') then '1 of 2 actions failed.' end,
        at, at
      from generate_series(${start}::int, ${end}::int) g,
        lateral (select now() - (${N} - g) * interval '1 second' as at) t,
        lateral (select ${sql.raw(STATUS_SQL)} as status) s`);
    await getDb().execute(sql`
      insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg, position,
        input, output, started_at, finished_at, duration_ms)
      select r.tenant_id, r.id, n.node_id, n.node_type, n.category,
        case when n.node_id = 'w' and r.status = 'waiting' then 'waiting'
             when n.node_id = 'b' and r.status in ('failed', 'partial') then 'failed' else 'success' end,
        n.leg, n.position, '{"tag":"seen"}'::jsonb, '{"tags":["seen"]}'::jsonb, r.created_at, r.created_at, 12
      from automation_runs r
      cross join (values ('a', 'auto.action.add_tag', 'action', 1, 0), ('w', 'auto.control.wait', 'wait', 1, 1),
                         ('b', 'auto.action.add_tag', 'action', 2, 0)) n(node_id, node_type, category, leg, position)
      where r.tenant_id = ${tenantId}::uuid and r.event_id in (select 'evt' || g from generate_series(${start}::int, ${end}::int) g)
        and (n.leg = 1 or r.status <> 'waiting')`);
    await getDb().execute(sql`
      insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type,
        step_id, leg, event, kind, resume_at)
      select r.tenant_id, r.id, r.automation_id, 1, 'w', 'auto.control.wait', s.id, 1, r.event, 'delay', r.resume_at
      from automation_runs r join automation_run_steps s on s.run_id = r.id and s.node_id = 'w'
      where r.tenant_id = ${tenantId}::uuid and r.status = 'waiting'
        and r.event_id in (select 'evt' || g from generate_series(${start}::int, ${end}::int) g)`);
    console.log(`  seeded ${end.toLocaleString("en-US")} of ${N.toLocaleString("en-US")} runs`);
  }
  // A live table has been vacuumed and analysed; a bulk-loaded one has not, and autovacuum
  // working through millions of fresh rows mid-measurement would time autovacuum, not the API.
  for (const table of [
    "automation_runs",
    "automation_run_steps",
    "automation_run_waits",
    "automation_run_keys",
  ])
    await getDb().execute(sql.raw(`vacuum analyze ${table}`));
  await getDb().execute(sql`checkpoint`);
}

/**
 * Cursors into the history at random depths (5% to 90% of the matching rows), as the API would hand
 * them out after that many pages. Found in one numbered scan per case, outside the timed part.
 */
async function deepCursors(tenantId: string, where: string, count: number) {
  const [counted] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from automation_runs where tenant_id = ${tenantId}::uuid ${sql.raw(where)}`,
  );
  const matching = counted!.n;
  const depths = Array.from({ length: count }, () =>
    Math.min(matching - LIMIT - 1, Math.floor(matching * (0.05 + Math.random() * 0.85))),
  );
  const rows = await getDb().execute<{ at: string; id: string; rn: number }>(sql`
    select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id, rn::int as rn
    from (select created_at, id, row_number() over (order by created_at desc, id desc) as rn
          from automation_runs where tenant_id = ${tenantId}::uuid ${sql.raw(where)}) numbered
    where rn = any(${`{${depths.join(",")}}`}::bigint[])`);
  const byDepth = new Map(rows.map((row) => [Number(row.rn), encodePreciseCursor(row.at, row.id)]));
  // Shuffled, so consecutive requests do not walk the index in order.
  return depths.map((depth) => byDepth.get(depth)!).sort(() => Math.random() - 0.5);
}

/** One request through the route handler, timed from the call to the parsed JSON. */
async function timeRequest(key: string, query: string): Promise<number> {
  const req = new Request(`http://bench.local/api/v1/runs?${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const started = performance.now();
  const res = await runsRoute(req, { params: Promise.resolve({}) as Promise<Record<string, never>> });
  const body = (await res.json()) as { items?: unknown[] };
  const elapsed = performance.now() - started;
  if (res.status !== 200 || body.items?.length !== LIMIT)
    throw new Error(`Unexpected reply for ?${query}: ${res.status}, ${body.items?.length} items.`);
  return elapsed;
}

export async function benchHistory(): Promise<void> {
  const db = await benchDatabase("history");
  try {
    const tenant = await createTenant({ slug: "bench", name: "Bench" });
    const { key } = await createApiKey(tenant.id, { name: "bench", role: "viewer" });
    const { key: adminKey } = await createApiKey(tenant.id, { name: "bench admin", role: "admin" });
    const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${adminKey}` })))!;
    const automationIds: string[] = [];
    for (let i = 1; i <= AUTOMATIONS; i++) {
      const automation = await createAutomation(caller, { name: `Follow-up ${i}`, graph: GRAPH });
      await publishAutomation(caller, automation.id, {});
      automationIds.push(automation.id);
    }
    // A second shop with its own runs, so the tenant condition has something to exclude.
    const other = await createTenant({ slug: "other", name: "Other" });
    const otherCaller = { ...caller, tenant: { ...caller.tenant, id: other.id } };
    const otherAutomation = await createAutomation(otherCaller, { name: "Other shop", graph: GRAPH });

    const seedStarted = Date.now();
    await seed(tenant.id, automationIds);
    await getDb().execute(sql`
      insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id,
        trigger_node_id, event, domain, entity_id)
      select ${other.id}::uuid, ${otherAutomation.id}::uuid, 1, 'succeeded', 'evt' || g, 't',
        '{"id":"x","type":"order.created","domain":"order","entityId":null,"entityStatus":null,"payload":{},"occurredAt":"2026-01-01T00:00:00Z"}'::jsonb,
        'order', null from generate_series(1, 10000) g`);
    const seedSeconds = (Date.now() - seedStarted) / 1000;

    // Automation 4 holds runs with g % 10 = 3: a tenth of the history, and 1% of it is waiting.
    const automation = automationIds[3]!;
    const cases: Array<{ name: string; query: string; where: string }> = [
      { name: "unfiltered", query: "", where: "" },
      {
        name: "automation",
        query: `automationId=${automation}`,
        where: `and automation_id = '${automation}'`,
      },
      { name: "status", query: "status=failed", where: "and status = 'failed'" },
      {
        name: "automationStatus",
        query: `automationId=${automation}&status=waiting`,
        where: `and automation_id = '${automation}' and status = 'waiting'`,
      },
    ];

    const [parts] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from pg_inherits where inhparent = 'automation_runs'::regclass`,
    );
    const metrics: Record<string, number | string | boolean> = {
      runs: N,
      runPartitions: parts!.n,
      steps: Number(
        (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from automation_run_steps`))[0]!
          .n,
      ),
      seedSeconds,
      pageSize: LIMIT,
      samplesPerCase: SAMPLES,
    };
    const series: Array<{ name: string; queries: string[]; timings: number[] }> = [];
    for (const c of cases) {
      const base = `${c.query}${c.query ? "&" : ""}limit=${LIMIT}`;
      const cursors = await deepCursors(tenant.id, c.where, SAMPLES);
      series.push({ name: `${c.name}FirstPage`, queries: cursors.map(() => base), timings: [] });
      series.push({
        name: `${c.name}DeepPage`,
        queries: cursors.map((cur) => `${base}&cursor=${cur}`),
        timings: [],
      });
    }
    // Warm the caches the way a live server is warm; the warm-up is not measured.
    for (const s of series) for (const query of s.queries.slice(0, 10)) await timeRequest(key, query);
    // Round-robin over the cases, so a passing disturbance on a shared machine touches them all alike.
    for (let i = 0; i < SAMPLES; i++)
      for (const s of series) s.timings.push(await timeRequest(key, s.queries[i]!));
    let worstP95 = 0;
    for (const s of series) {
      const timings = s.timings.sort((a, b) => a - b);
      const p95 = percentile(timings, 95);
      worstP95 = Math.max(worstP95, p95);
      metrics[`${s.name}P50Ms`] = Number(percentile(timings, 50).toFixed(2));
      metrics[`${s.name}P95Ms`] = Number(p95.toFixed(2));
    }
    metrics.worstP95Ms = Number(worstP95.toFixed(2));
    metrics.targetP95Ms = TARGET_P95_MS;
    metrics.meetsTarget = worstP95 <= TARGET_P95_MS;
    report("history", metrics);
  } finally {
    await db.drop();
  }
}
