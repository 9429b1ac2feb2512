/**
 * `npm run bench -- engine`: bare graphile-worker no-op jobs/s, then N order events through
 * trigger → condition → add_tag settled end to end, each with and without graphile-worker's
 * batching (local queue + batched completion). Reports runs/s and the ratio to the no-op figure.
 */
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant } from "@/lib/auth/tenants";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { recordEvents } from "@/lib/automations/engine/start/events";
import { startWorker } from "@/worker/run";
import { benchDatabase, report, waitUntil } from "./harness";

const N = Number(process.env.BENCH_N ?? 20_000);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 10_000);

interface Mode {
  label: string;
  localQueueSize: number;
  completeBatchDelay: number;
}
const BATCHED: Mode = { label: "batched", localQueueSize: CONCURRENCY, completeBatchDelay: 0 };
const UNBATCHED: Mode = { label: "unbatched", localQueueSize: 1, completeBatchDelay: -1 };

/** Jobs left in graphile-worker's queue, due or not. */
export async function pendingJobs(): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from graphile_worker._private_jobs`,
  );
  return row!.n;
}

async function noopJobsPerSecond(mode: Mode, url: string): Promise<number> {
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
    localQueueSize: mode.localQueueSize,
    completeBatchDelay: mode.completeBatchDelay,
    extraTasks: { bench_noop: async () => {} },
  });
  await waitUntil(async () => (await pendingJobs()) === 0, 300_000, 20);
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  return N / seconds;
}

/**
 * `n` orders (totals 0..199, bulk-inserted) and one `order.created` event each, recorded in batches
 * of 1,000: a backlog of `n` queued runs and their jobs. `bench -- workers` drains it too.
 */
export async function seedOrderBacklog(tenantId: string, prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 2_000) {
    const rows = Array.from({ length: Math.min(2_000, n - i) }, (_, j) => ({
      tenantId,
      domain: "order",
      id: `${prefix}${i + j}`,
      data: { number: `#${i + j}`, status: "pending", total: (i + j) % 200, currency: "EUR", lineItems: [] },
      status: "pending",
      updatedAt: new Date(),
    }));
    await getDb().insert(entities).values(rows);
  }
  for (let i = 0; i < n; i += 1_000) {
    await getDb().transaction((tx) =>
      recordEvents(
        tx,
        tenantId,
        Array.from({ length: Math.min(1_000, n - i) }, (_, j) => ({
          type: "order.created",
          domain: "order",
          entityId: `${prefix}${i + j}`,
          payload: { status: "pending" },
        })),
      ),
    );
  }
  // A live database has statistics; a bulk-loaded one has none until autovacuum gets to it.
  await getDb().execute(sql`analyze`);
}

/** Until no run is queued or running. */
export async function waitForBacklogDrained(timeoutMs = 600_000): Promise<void> {
  await waitUntil(
    async () => {
      const [row] = await getDb().execute<{ n: number }>(
        sql`select count(*)::int as n from automation_runs where status in ('queued', 'running')`,
      );
      return row!.n === 0;
    },
    timeoutMs,
    50,
  );
}

/** Throws unless every run of the backlog succeeded and exactly the big orders were tagged. */
export async function checkBacklog(prefix: string, n: number): Promise<void> {
  const [check] = await getDb().execute<{ tagged: number; runs: number }>(sql`
    select (select count(*)::int from entities where id like ${prefix + "%"} and 'big' = any(tags)) as tagged,
           (select count(*)::int from automation_runs where status = 'succeeded' and entity_id like ${prefix + "%"}) as runs`);
  const expectedTagged = Array.from({ length: n }, (_, i) => i % 200).filter((t) => t > 100).length;
  if (check!.runs !== n || check!.tagged !== expectedTagged) {
    throw new Error(
      `Wrong result: ${check!.runs} succeeded runs (want ${n}), ${check!.tagged} tagged (want ${expectedTagged}).`,
    );
  }
}

async function engineRunsPerSecond(
  mode: Mode,
  url: string,
  tenantId: string,
  round: number,
): Promise<number> {
  // The orders exist already (inserted in bulk); each event starts one run in its own transaction batch.
  const prefix = `r${round}-`;
  await seedOrderBacklog(tenantId, prefix, N);
  const started = performance.now();
  const worker = await startWorker({
    connectionString: url,
    concurrency: CONCURRENCY,
    crontab: false,
    localQueueSize: mode.localQueueSize,
    completeBatchDelay: mode.completeBatchDelay,
  });
  await waitForBacklogDrained();
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  await checkBacklog(prefix, N);
  return N / seconds;
}

/** A shop and its published "Tag big orders" flow (order created → total > 100 → tag `big`). */
export async function createEngineFlow(): Promise<{ tenantId: string }> {
  const tenant = await createTenant({ slug: "bench", name: "Bench" });
  const { key } = await createApiKey(tenant.id, { name: "bench", role: "admin" });
  const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
  const automation = await createAutomation(caller, {
    name: "Tag big orders",
    graph: {
      nodes: [
        { id: "t", type: "auto.trigger.order_created", params: {} },
        { id: "c", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
        { id: "a", type: "auto.action.add_tag", params: { tag: "big" } },
      ],
      edges: [
        { id: "e1", source: "t", target: "c" },
        { id: "e2", source: "c", sourceHandle: "true", target: "a" },
      ],
    },
  });
  await publishAutomation(caller, automation.id, {});
  return { tenantId: tenant.id };
}

export async function benchEngine(): Promise<void> {
  const db = await benchDatabase("engine");
  try {
    const tenant = { id: (await createEngineFlow()).tenantId };

    const noopBatched = await noopJobsPerSecond(BATCHED, db.url);
    const noopUnbatched = await noopJobsPerSecond(UNBATCHED, db.url);
    const runsBatched = await engineRunsPerSecond(BATCHED, db.url, tenant.id, 1);
    const runsUnbatched = await engineRunsPerSecond(UNBATCHED, db.url, tenant.id, 2);
    report("engine", {
      events: N,
      concurrency: CONCURRENCY,
      noopJobsPerSecondBatched: Math.round(noopBatched),
      noopJobsPerSecondUnbatched: Math.round(noopUnbatched),
      runsPerSecondBatched: Math.round(runsBatched),
      runsPerSecondUnbatched: Math.round(runsUnbatched),
      ratioToNoopBatched: runsBatched / noopBatched,
      ratioToNoopUnbatched: runsUnbatched / noopUnbatched,
      targetRunsPerSecond: 1000,
      meetsTarget: runsBatched >= 1000,
    });
  } finally {
    await db.drop();
  }
}
