import fs from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { percentile, waitUntil } from "@/bench/harness";
import { wallMs } from "@/bench/live-load";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "./fixtures";
import { flow, publishFlow, settledRuns, type FlowNode } from "./flows";
import { startWebProcess, type WebProcess } from "./web-process";
import { killWorkers, spawnWorker } from "./worker-process";

// SPEC §2 "Code runs apart", end to end: a web server process and a worker process of their own
// (real HTTP, their own event loops and script pools), measured from outside them as a merchant
// or an integration would see them. The machine is shared: the latency bars are collapse guards
// with a wide margin (what a script on an event loop would cause), and the figures are printed.

const CPU_STOP = "The script ran for more than 1 second and was stopped.";
const LOOP = "for (;;) {}";

let web: WebProcess;
let workerPid: number;

beforeAll(async () => {
  web = await startWebProcess();
  const worker = spawnWorker({ TILLFLOW_SCHEDULES: "off" });
  workerPid = worker.pid!;
  // Ready once the worker beats: health says ok.
  await waitUntil(async () => (await fetch(`${web.baseUrl}/api/health`)).status === 200, 60_000, 200);
});

afterAll(async () => {
  killWorkers();
  await web?.stop();
});

/** The worker process's resident memory, MB, as the kernel counts it. */
function workerRssMb(): number {
  const status = fs.readFileSync(`/proc/${workerPid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function post(key: string, path: string, body: unknown) {
  const res = await fetch(`${web.baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function order(shop: TestShop, id: string) {
  await upsertEntity(shop.tenant.id, "order", id, { number: `#${id}`, status: "paid", total: 40, currency: "EUR" }, "test");
}

/** Records `order.fulfilled` for an order through the API, as an integration would. */
async function fulfil(shop: TestShop, eventId: string, orderId: string, payload: object = {}) {
  const reply = await post(shop.keys.editor, "/api/v1/events", {
    id: eventId,
    type: "order.fulfilled",
    domain: "order",
    entityId: orderId,
    payload,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
}

//  order_fulfilled ─┬─▶ code1 ─┐
//                   ├─▶ code2   … each its own branch: one failing does not stop the others
//                   └─▶ codeN
const fanOut = (count: number, source: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_fulfilled" },
      ...Array.from({ length: count }, (_, i): FlowNode => ({
        id: `code${i + 1}`,
        type: "auto.action.code",
        params: { source },
      })),
    ],
    Array.from({ length: count }, (_, i): [string, string] => ["t", `code${i + 1}`]),
  );

/** Each event's run: event → run settled, ms, from when it was sent to the run's `finished_at`. */
async function settleTimes(automationId: string, sentAt: Map<string, number>): Promise<number[]> {
  const rows = await getDb().execute<{ event_id: string; status: string; ms: number }>(
    sql`select event_id, status, (extract(epoch from finished_at) * 1000)::float8 as ms
        from automation_runs where automation_id = ${automationId}`,
  );
  expect(rows.filter((r) => sentAt.has(r.event_id)).map((r) => r.status)).toEqual(
    [...sentAt.keys()].map(() => "succeeded"),
  );
  return rows
    .filter((r) => sentAt.has(r.event_id))
    .map((r) => Number(r.ms) - sentAt.get(r.event_id)!)
    .sort((a, b) => a - b);
}

/** Sends `count` events for shop B, `everyMs` apart, and returns when each was sent. */
async function paced(shop: TestShop, prefix: string, count: number, everyMs: number) {
  const sentAt = new Map<string, number>();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = started + i * everyMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = `${prefix}-${i}`;
    sentAt.set(id, wallMs());
    await fulfil(shop, id, "b-1");
  }
  return sentAt;
}

test("three scripts stopped at 64 MB leave the worker's resident memory within 100 MB of where it was", async () => {
  const shop = await createShop();
  await order(shop, "m-1");
  const automationId = await publishFlow(
    shop.keys.editor,
    "Hungry script",
    fanOut(1, "if (event.payload.hungry) { const a = []; for (;;) a.push(new Array(1e6).fill(0)); }\nreturn { fed: false };"),
  );
  // Warm: the worker has loaded the engine and its pool has started a thread and QuickJS.
  await fulfil(shop, "m-warm", "m-1");
  await settledRuns(automationId, 1, 30_000);
  const before = workerRssMb();

  // Three, one after another: a thread kept after each would hold its 64 MB (two threads: 128+).
  for (let i = 1; i <= 3; i++) {
    await fulfil(shop, `m-hungry-${i}`, "m-1", { hungry: true });
    await settledRuns(automationId, 1 + i, 30_000);
  }
  const steps = await getDb().execute<{ status: string; error: string }>(
    sql`select s.status, s.error from automation_run_steps s join automation_runs r on r.id = s.run_id
        where r.automation_id = ${automationId} and r.event_id like 'm-hungry-%'`,
  );
  expect(steps.map((s) => s.status)).toEqual(["failed", "failed", "failed"]);
  for (const step of steps) expect(step.error).toMatch(/^The script used more than 64 MB of memory/);

  await new Promise((r) => setTimeout(r, 500));
  const after = workerRssMb();
  console.log(`worker RSS: ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after three 64 MB scripts`);
  expect(after - before).toBeLessThan(100);
}, 90_000);

test("a viewer's dry run of a looping script is refused over HTTP; an editor's runs it off the event loop: health keeps answering", async () => {
  const shop = await createShop();
  await order(shop, "d-1");
  const STEPS = 10;
  const automationId = await publishFlow(shop.keys.editor, "Loops", fanOut(STEPS, LOOP));
  const dryRun = `/api/v1/automations/${automationId}/dry-run`;

  const viewer = await post(shop.keys.viewer, dryRun, { entityId: "d-1" });
  expect(viewer.status).toBe(403);
  expect((viewer.body.error as { message: string }).message).toBe(
    "A dry run of a flow with a code step runs its script, so it needs the editor role. Ask an admin for the editor role.",
  );
  const sentGraph = await post(shop.keys.viewer, dryRun, { graph: fanOut(1, "return {}") });
  expect(sentGraph.status).toBe(403);

  // Health every 50 ms while the editor's dry run spends its scripts' ten CPU seconds.
  const latencies: number[] = [];
  const statuses = new Set<number>();
  let inFlight = true;
  const poller = (async () => {
    while (inFlight) {
      const started = performance.now();
      const res = await fetch(`${web.baseUrl}/api/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses.add(res.status);
      await new Promise((r) => setTimeout(r, Math.max(0, 50 - (performance.now() - started))));
    }
  })();
  const started = performance.now();
  const editor = await post(shop.keys.editor, dryRun, { entityId: "d-1" }).finally(() => (inFlight = false));
  const dryRunMs = performance.now() - started;
  await poller;

  expect(editor.status, JSON.stringify(editor.body)).toBe(200);
  const steps = editor.body.steps as { nodeId: string; outcome: string; error?: string }[];
  expect(steps.filter((s) => s.nodeId.startsWith("code")).map((s) => [s.outcome, s.error])).toEqual(
    Array.from({ length: STEPS }, () => ["error", CPU_STOP]),
  );
  latencies.sort((a, b) => a - b);
  const worst = latencies.at(-1)!;
  console.log(
    `dry run of ${STEPS} looping scripts: ${(dryRunMs / 1000).toFixed(1)} s; ${latencies.length} health checks meanwhile, ` +
      `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${worst.toFixed(0)} ms`,
  );
  expect([...statuses]).toEqual([200]);
  // The dry run took its scripts' seconds, and health was asked all along.
  expect(dryRunMs).toBeGreaterThan(STEPS * 1_000);
  expect(latencies.length).toBeGreaterThan(STEPS * 10);
  // A script on the web server's event loop would hold health for its whole second.
  expect(worst).toBeLessThan(500);
}, 120_000);

test("while one shop's scripts loop to their limits on the worker, another shop's order → tag runs settle as fast as before", async () => {
  const looping = await createShop();
  const other = await createShop();
  await order(looping, "a-1");
  await order(other, "b-1");
  const SCRIPTS = 20;
  const loopsId = await publishFlow(looping.keys.editor, "Twenty loops", fanOut(SCRIPTS, LOOP));
  const tagId = await publishFlow(
    other.keys.editor,
    "Tag fulfilled orders",
    flow(
      [
        { id: "t", type: "auto.trigger.order_fulfilled" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "fulfilled" } },
      ],
      [["t", "tag"]],
    ),
  );

  // Alone: shop B's events, 10 a second.
  const alone = await paced(other, "b-alone", 20, 100);
  await settledRuns(tagId, alone.size, 30_000);
  const aloneMs = await settleTimes(tagId, alone);

  // Shop A's event: its twenty scripts, one after another, each looping to its CPU second.
  await fulfil(looping, "a-loops", "a-1");
  await expect
    .poll(
      async () =>
        (
          await getDb().execute(
            sql`select 1 from action_deliveries d join automation_runs r on r.id = d.run_id
                where r.automation_id = ${loopsId} and d.status = 'sending'`,
          )
        ).length,
      { timeout: 30_000, interval: 20 },
    )
    .toBe(1);
  const during = await paced(other, "b-during", 50, 100);
  await settledRuns(tagId, alone.size + during.size, 30_000);
  const duringMs = await settleTimes(tagId, during);
  // Shop A was still looping after the last of B's events settled.
  const [{ n: scriptsDone }] = (await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from automation_run_steps s join automation_runs r on r.id = s.run_id
        where r.automation_id = ${loopsId}`,
  )) as unknown as [{ n: number }];
  expect(scriptsDone).toBeLessThan(SCRIPTS);

  const figures = (ms: number[]) =>
    `p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`;
  console.log(
    `shop B's event → settled: alone ${figures(aloneMs)}; while shop A's scripts loop ${figures(duringMs)} ` +
      `(${scriptsDone} of A's ${SCRIPTS} scripts done by then)`,
  );
  // A script on the worker's event loop would hold every run for up to its whole second.
  expect(percentile(duringMs, 99)).toBeLessThan(Math.max(750, 3 * percentile(aloneMs, 99)));

  // Every one of shop A's scripts hit its limit and failed its step alone.
  const [run] = await settledRuns(loopsId, 1, 120_000);
  expect(run!.status).toBe("failed");
  const steps = await getDb().execute<{ node_id: string; error: string }>(
    sql`select node_id, error from automation_run_steps where run_id = ${run!.id} order by node_id`,
  );
  expect(steps).toHaveLength(SCRIPTS);
  expect(new Set(steps.map((s) => s.error))).toEqual(new Set([CPU_STOP]));
}, 180_000);
