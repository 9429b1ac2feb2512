/**
 * `npm run bench -- fanout`: bare graphile-worker no-op jobs/s, then one schedule fire over
 * 50,000 customers (trigger with an audience → condition → add_tag) through the real path: the
 * `schedule_tick` heartbeat task claims the fire, `schedule_fanout` creates the runs in batches
 * (keyset + add_jobs), and the engine settles them. Reports total seconds until every run settled,
 * runs/s, and the ratio to the no-op figure measured in the same process. Target (SPEC §5): ≤ 25 s.
 */
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant } from "@/lib/auth/tenants";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { getDb } from "@/lib/db/client";
import { enqueueJobs } from "@/lib/jobs";
import { startWorker } from "@/worker/run";
import { benchDatabase, count, report, waitUntil } from "./harness";

const N = Number(process.env.BENCH_N ?? 50_000);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 10_000);
const TARGET_SECONDS = 25;

async function noopJobsPerSecond(url: string): Promise<number> {
  // The no-op task exists only in this benchmark's worker, so it is enqueued by name here.
  await getDb().execute(sql`
    select graphile_worker.add_jobs(array(
      select ('bench_noop', '{}'::json, null, null, 1, null, null, null)::graphile_worker.job_spec
      from generate_series(1, ${N})))`);
  const started = performance.now();
  const worker = await startWorker({
    connectionString: url,
    concurrency: CONCURRENCY,
    crontab: false,
    extraTasks: { bench_noop: async () => {} },
  });
  await waitUntil(
    async () => (await count(sql`select count(*)::int as n from graphile_worker._private_jobs`)) === 0,
    300_000,
    20,
  );
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  return N / seconds;
}

export async function benchFanout(): Promise<void> {
  const db = await benchDatabase("fanout");
  try {
    const tenant = await createTenant({ slug: "bench", name: "Bench" });
    const { key } = await createApiKey(tenant.id, { name: "bench", role: "admin" });
    const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
    // Customers in one set-based statement; every one accepts marketing, half spent over 100.
    await getDb().execute(sql`
      insert into entities (tenant_id, domain, id, data, email, tags)
      select ${tenant.id}, 'customer', 'cus_' || lpad(i::text, 6, '0'),
             jsonb_build_object('email', 'c' || i || '@bench.test', 'name', 'Customer ' || i,
               'ordersCount', i % 7, 'totalSpent', i % 200, 'acceptsMarketing', true),
             'c' || i || '@bench.test', '{}'::text[]
      from generate_series(1, ${N}) as i`);
    await getDb().execute(sql`analyze`);

    const automation = await createAutomation(caller, {
      name: "Tag big spenders",
      graph: {
        nodes: [
          {
            id: "t",
            type: "auto.trigger.schedule",
            params: { cron: "0 9 * * 1", timezone: "Europe/Paris", audience: { acceptsMarketing: true } },
          },
          {
            id: "c",
            type: "auto.condition.field",
            params: { path: "totalSpent", operator: "gt", value: 100 },
          },
          { id: "a", type: "auto.action.add_tag", params: { tag: "big" } },
        ],
        edges: [
          { id: "e1", source: "t", target: "c" },
          { id: "e2", source: "c", sourceHandle: "true", target: "a" },
        ],
      },
    });
    await publishAutomation(caller, automation.id, {});

    const noop = await noopJobsPerSecond(db.url);

    // Make the schedule due now, and queue the heartbeat exactly as the crontab would.
    await getDb().execute(
      sql`update automation_schedules set next_fire_at = now() - interval '1 second' where automation_id = ${automation.id}`,
    );
    await enqueueJobs(getDb(), [{ task: "schedule_tick", payload: {} }]);
    const started = performance.now();
    const worker = await startWorker({ connectionString: db.url, concurrency: CONCURRENCY, crontab: false });
    let fannedOutAt = 0;
    await waitUntil(
      async () => {
        const [row] = await getDb().execute<{ fire: string | null; created: number; open: number }>(sql`
          select (select status from schedule_fires where automation_id = ${automation.id} and kind = 'scheduled') as fire,
                 (select count(*)::int from automation_runs where automation_id = ${automation.id}) as created,
                 (select count(*)::int from automation_runs where automation_id = ${automation.id}
                    and status in ('queued', 'running')) as open`);
        if (row!.fire === "done" && !fannedOutAt) fannedOutAt = performance.now();
        return row!.fire === "done" && row!.created === N && row!.open === 0;
      },
      600_000,
      50,
    );
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();

    const [check] = await getDb().execute<{ runs: number; tagged: number; fires: number }>(sql`
      select (select count(*)::int from automation_runs where automation_id = ${automation.id} and status = 'succeeded') as runs,
             (select count(*)::int from entities where tenant_id = ${tenant.id} and 'big' = any(tags)) as tagged,
             (select count(*)::int from schedule_fires where automation_id = ${automation.id}) as fires`);
    const expectedTagged = Array.from({ length: N }, (_, i) => (i + 1) % 200).filter((t) => t > 100).length;
    if (check!.runs !== N || check!.tagged !== expectedTagged || check!.fires !== 1) {
      throw new Error(
        `Wrong result: ${check!.runs} succeeded runs (want ${N}), ${check!.tagged} tagged (want ${expectedTagged}), ${check!.fires} fires (want 1).`,
      );
    }
    const runsPerSecond = N / seconds;
    report("fanout", {
      customers: N,
      concurrency: CONCURRENCY,
      noopJobsPerSecond: Math.round(noop),
      fanOutSeconds: (fannedOutAt - started) / 1000,
      totalSeconds: seconds,
      runsPerSecond: Math.round(runsPerSecond),
      ratioToNoop: runsPerSecond / noop,
      targetSeconds: TARGET_SECONDS,
      meetsTarget: seconds <= TARGET_SECONDS,
    });
  } finally {
    await db.drop();
  }
}
