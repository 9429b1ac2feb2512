import http from "node:http";
import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import {
  actionDeliveries,
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  entities,
  entityNotes,
  workerHeartbeats,
} from "@/lib/db/schema";
import { recordEvents } from "@/lib/automations/engine/start/events";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

/**
 * Four real worker processes on one database share 2,000 runs of
 *
 *   order_created ──▶ add_tag(four) ──▶ Wait 1 minute ──▶ http POST 127.0.0.1 ──▶ add_note
 *
 * (the minute waits are made due at once, as `npm run chaos -- --quick` does). Each run is two
 * legs and two jobs (execute, then resume). Besides every run succeeding and every effect existing
 * once, it proves no job ran twice: a trigger on graphile-worker's job table logs every time a
 * job is taken (graphile-worker and the WakeTimer both count an attempt when they lock one), and
 * the receiver counts raw requests per Idempotency-Key, repeats included.
 */

const RUNS = Number(process.env.FOUR_WORKERS_RUNS ?? 2_000);
const WORKERS = 4;

const requests = new Map<string, number>();
let receiver: http.Server;
let receiverUrl = "";
const workers: ChildProcess[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const key = String(req.headers["idempotency-key"] ?? "");
    requests.set(key, (requests.get(key) ?? 0) + 1);
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  });
  receiverUrl = await listenLocally(receiver);
  // Every time any process takes a job: graphile-worker's fetch and the WakeTimer's hold both
  // add one to `attempts` (a job given back unused has it taken off again, and is logged anew
  // when taken next: the assertion below would then see it twice, so it catches that too).
  await getDb().execute(sql`
    create table job_takes (job_id bigint, task text, locked_by text, attempts int);
    create function log_job_take() returns trigger language plpgsql as $$
    begin
      insert into job_takes
      select new.id, t.identifier, new.locked_by, new.attempts
      from graphile_worker._private_tasks t where t.id = new.task_id;
      return new;
    end $$;
    create trigger log_job_take after update of attempts on graphile_worker._private_jobs
      for each row when (new.attempts > old.attempts) execute function log_job_take();`);
});

afterAll(async () => {
  // Clean stops first (SIGTERM: finish running jobs), then anything left is killed.
  await Promise.all(
    workers.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(resolve, 15_000).unref();
        }),
    ),
  );
  killWorkers();
  await closeServer(receiver);
});

test(
  "four worker processes run 2,000 runs: every effect once, no job taken twice",
  { timeout: 120_000 },
  async () => {
    const shop = await createShop();
    const automationId = await publishFlow(
      shop.keys.admin,
      "Four workers",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "four" } },
          { id: "wait", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
          {
            id: "call",
            type: "auto.action.http_request",
            params: { url: `${receiverUrl}/hook`, method: "POST", body: '{"run":"{run.id}"}' },
          },
          { id: "note", type: "auto.action.add_note", params: { body: "Called for {entity.id}" } },
        ],
        [
          ["t", "tag"],
          ["tag", "wait"],
          ["wait", "call"],
          ["call", "note"],
        ],
      ),
    );

    // Small local queues, so all four take jobs from the start rather than one fetching a thousand.
    for (let i = 0; i < WORKERS; i++)
      workers.push(spawnWorker({ WORKER_LOCAL_QUEUE: "50", TILLFLOW_SCHEDULES: "off" }));
    await expect
      .poll(
        async () => {
          const [row] = await getDb().execute<{ n: number }>(
            sql`select count(*)::int as n from ${workerHeartbeats} where stopped_at is null`,
          );
          return row!.n;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(WORKERS);

    const tenantId = shop.tenant.id;
    await getDb()
      .insert(entities)
      .values(
        Array.from({ length: RUNS }, (_, i) => ({
          tenantId,
          domain: "order",
          id: `o${i}`,
          data: { number: `#${i}`, status: "pending", total: 10, currency: "EUR", lineItems: [] },
          status: "pending",
          updatedAt: new Date(),
        })),
      );
    for (let i = 0; i < RUNS; i += 500) {
      await getDb().transaction((tx) =>
        recordEvents(
          tx,
          tenantId,
          Array.from({ length: Math.min(500, RUNS - i) }, (_, j) => ({
            type: "order.created",
            domain: "order",
            entityId: `o${i + j}`,
            payload: { status: "pending" },
          })),
        ),
      );
    }

    // The minute waits come due now: both the wait rows and their resume jobs are moved.
    let settled = false;
    const hurry = (async () => {
      while (!settled) {
        await getDb().execute(sql`
        with moved as (
          update ${automationRunWaits} set resume_at = now() + interval '200 milliseconds'
          where automation_id = ${automationId} and status = 'pending' and resume_at > now() + interval '200 milliseconds'
          returning id::text as key)
        update graphile_worker._private_jobs j set run_at = now() + interval '200 milliseconds'
        from moved where j.key = moved.key`);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    try {
      await expect
        .poll(
          async () => {
            const [row] = await getDb().execute<{ open: number; total: number }>(sql`
            select count(*) filter (where status not in ('succeeded', 'partial', 'failed', 'cancelled'))::int as open,
                   count(*)::int as total
            from ${automationRuns} where automation_id = ${automationId}`);
            return row!.total === RUNS && row!.open === 0;
          },
          { timeout: 90_000, interval: 250 },
        )
        .toBe(true);
    } finally {
      settled = true;
      await hurry;
    }

    const [runs] = await getDb().execute<{ succeeded: number; total: number }>(sql`
    select count(*) filter (where status = 'succeeded')::int as succeeded, count(*)::int as total
    from ${automationRuns} where automation_id = ${automationId}`);
    expect(runs).toEqual({ succeeded: RUNS, total: RUNS });

    // A failed attempt can only be the HTTP call timing out on a loaded machine (the receiver shares
    // this process with the polling): the engine retries it in a new leg, with a new resume job.
    // That is the retry policy at work, not a repeat; anything else failing is a bug.
    const failed = await getDb().execute<{ node: string; error: string | null }>(sql`
    select s.node_id as node, s.error from ${automationRunSteps} s join ${automationRuns} r on r.id = s.run_id
    where r.automation_id = ${automationId} and s.status = 'failed'`);
    if (failed.length > 0) console.warn(`${failed.length} HTTP attempts were retried:`, failed);
    expect(failed.filter((f) => f.node !== "call")).toEqual([]);
    const retries = failed.length;

    // Every HTTP delivery arrived once per key; a key is sent again only by a retry of its step.
    const repeats = [...requests.values()].reduce((sum, n) => sum + n - 1, 0);
    expect(repeats).toBeLessThanOrEqual(retries);
    expect(requests.size).toBeGreaterThanOrEqual(RUNS);
    expect(requests.size).toBeLessThanOrEqual(RUNS + retries);

    // Every tag and note applied once.
    const [effects] = await getDb().execute<{ tagged: number; noted: number; notes: number }>(sql`
    select (select count(*)::int from ${entities} where tenant_id = ${tenantId} and 'four' = any(tags)) as tagged,
           (select count(distinct entity_id)::int from ${entityNotes} where tenant_id = ${tenantId}) as noted,
           (select count(*)::int from ${entityNotes} where tenant_id = ${tenantId}) as notes`);
    expect(effects).toEqual({ tagged: RUNS, noted: RUNS, notes: RUNS });

    // No (run, node, leg) twice — the unique constraints forbid it; this also checks the counts.
    const [rows] = await getDb().execute<{
      steps: number;
      deliveries: number;
      dupSteps: number;
      dupDeliveries: number;
    }>(sql`
    select (select count(*)::int from ${automationRunSteps} s join ${automationRuns} r on r.id = s.run_id
              where r.automation_id = ${automationId} and s.status <> 'failed') as steps,
           (select count(*)::int from ${actionDeliveries} d join ${automationRuns} r on r.id = d.run_id
              where r.automation_id = ${automationId} and d.status = 'delivered') as deliveries,
           (select count(*)::int from (select 1 from ${automationRunSteps} group by run_id, node_id, leg having count(*) > 1) x) as "dupSteps",
           (select count(*)::int from (select 1 from ${actionDeliveries} group by run_id, node_id, leg having count(*) > 1) x) as "dupDeliveries"`);
    // Steps: tag, wait, call, note (a trigger has none); deliveries: tag, call, note.
    expect(rows).toEqual({ steps: 4 * RUNS, deliveries: 3 * RUNS, dupSteps: 0, dupDeliveries: 0 });

    // No job taken twice: every job of the runs was taken exactly once — each run's execute job,
    // each wait's resume job (and each retry's).
    const takes = await getDb().execute<{ task: string; jobs: number; takes: number }>(sql`
    select task, count(distinct job_id)::int as jobs, count(*)::int as takes
    from job_takes where task like 'automation_%' group by task order by task`);
    const byTask = Object.fromEntries(takes.map((t) => [t.task, t]));
    expect(byTask.automation_execute).toEqual({ task: "automation_execute", jobs: RUNS, takes: RUNS });
    expect(byTask.automation_resume!.takes).toBe(byTask.automation_resume!.jobs);
    expect(byTask.automation_resume!.jobs).toBeGreaterThanOrEqual(RUNS);
    expect(byTask.automation_resume!.jobs).toBeLessThanOrEqual(RUNS + retries);
    // And the work was shared: every one of the four processes took jobs.
    const [owners] = await getDb().execute<{ workers: number }>(sql`
    select count(distinct h.worker_id)::int as workers
    from ${workerHeartbeats} h where exists (select 1 from job_takes t where t.locked_by = any(h.lock_ids))`);
    expect(owners!.workers).toBe(WORKERS);
  },
);
