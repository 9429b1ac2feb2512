import fs from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { percentile, waitUntil } from "@/bench/harness";
import { wallMs } from "@/bench/live-load";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns, type FlowNode } from "@/tests/helpers/flows";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";

// SPEC §2 "Code runs apart", end to end: a web server process and a worker process of their own
// (real HTTP, their own event loops and script pools), measured from outside them as a merchant
// or an integration would see them. The machine is shared: the latency bars are collapse guards
// with a wide margin (what a script on an event loop would cause), and the figures are printed.

const CPU_STOP = "The script ran for more than 1 second and was stopped.";
/** Its 10 s wall limit: a looping script starved of CPU (the whole suite on two cores) meets it first. */
const WALL_STOP = "The script took more than 10 seconds and was stopped.";
/** On a machine busy with other test files, a thread can get less than its second of CPU in 10 s. */
const STOPPED = [CPU_STOP, "The script took more than 10 seconds and was stopped."];
const LOOP = "for (;;) {}";

let web: WebServer;
let workerPid: number;

beforeAll(async () => {
  web = await startWebServer();
  // Two outside slots (the default is 32): the last test needs more of shop A's runs than slots.
  const worker = spawnWorker({ TILLFLOW_SCHEDULES: "off", WORKER_OUTSIDE_CONCURRENCY: "2" });
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
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "paid", total: 40, currency: "EUR" },
    "test",
  );
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

test("scripts stopped at 64 MB, two at a time, leave the worker's resident memory within 100 MB of where it was", async () => {
  const HUNGRY =
    "if (event.payload.hungry) { const a = []; for (;;) a.push(new Array(1e6).fill(0)); }\nreturn { fed: false };";
  // Two shops, so the two scripts run side by side, one on each thread of the pool: a thread
  // kept after its script would hold its 64 MB, so two kept would be 128 MB and more.
  const shops = await Promise.all([createShop(), createShop()]);
  const flows: string[] = [];
  for (const shop of shops) {
    await order(shop, "m-1");
    flows.push(await publishFlow(shop.keys.editor, "Hungry script", fanOut(1, HUNGRY)));
  }
  // Warm: the worker has loaded the engine, and its pool has started threads and QuickJS.
  await Promise.all(shops.map((shop) => fulfil(shop, "m-warm", "m-1")));
  await Promise.all(flows.map((id) => settledRuns(id, 1, 30_000)));
  const before = workerRssMb();

  for (let round = 1; round <= 2; round++) {
    await Promise.all(shops.map((shop) => fulfil(shop, `m-hungry-${round}`, "m-1", { hungry: true })));
    await Promise.all(flows.map((id) => settledRuns(id, 1 + round, 30_000)));
  }
  const steps = await getDb().execute<{ status: string; error: string }>(
    sql`select s.status, s.error from automation_run_steps s join automation_runs r on r.id = s.run_id
        where r.automation_id in ${flows} and r.event_id like 'm-hungry-%'`,
  );
  expect(steps.map((s) => s.status)).toEqual(["failed", "failed", "failed", "failed"]);
  for (const step of steps) expect(step.error).toMatch(/^The script used more than 64 MB of memory/);

  await new Promise((r) => setTimeout(r, 500));
  const after = workerRssMb();
  console.log(`worker RSS: ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after four 64 MB scripts`);
  expect(after - before).toBeLessThan(100);
}, 120_000);

test("a viewer's dry run of a looping script is refused over HTTP; an editor's runs it off the event loop: health keeps answering", async () => {
  const shop = await createShop();
  await order(shop, "d-1");
  // Five seconds of script CPU: a script on the web server's event loop would hold health a
  // second at a time, five times over.
  const STEPS = 5;
  const automationId = await publishFlow(shop.keys.editor, "Loops", fanOut(STEPS, LOOP));
  const dryRun = `/api/v1/automations/${automationId}/dry-run`;

  const viewer = await post(shop.keys.viewer, dryRun, { entityId: "d-1" });
  expect(viewer.status).toBe(403);
  expect((viewer.body.error as { message: string }).message).toBe(
    "A dry run of a flow with a code step runs its script, so it needs the editor role. Ask an admin for the editor role.",
  );
  const sentGraph = await post(shop.keys.viewer, dryRun, { graph: fanOut(1, "return {}") });
  expect(sentGraph.status).toBe(403);

  // Health every 50 ms while the editor's dry run spends its scripts' CPU seconds.
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
  const code = steps.filter((s) => s.nodeId.startsWith("code"));
  expect(code).toHaveLength(STEPS);
  for (const step of code) {
    expect(step.outcome).toBe("error");
    expect(STOPPED).toContain(step.error);
  }
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
  // A script on the web server's event loop would hold every health check asked during its second
  // (most would wait hundreds of ms, the p99 about a second). One slow answer alone is the machine
  // (the whole suite beside it once gave a single 543 ms), so the p99 is what is held to 500 ms.
  expect(percentile(latencies, 99)).toBeLessThan(500);
}, 120_000);

test("while one shop's scripts loop to their limits on the worker, another shop's runs settle as fast as before, with a code step or without", async () => {
  const looping = await createShop();
  const other = await createShop();
  await order(looping, "a-1");
  await order(other, "b-1");
  // Four runs of five scripts: more runs than the worker's outside slots (2 here), so a script
  // that queued for a slot would make the other shop's code step wait behind shop A's loops.
  const RUNS = 4;
  const SCRIPTS = 5;
  const loopsId = await publishFlow(
    looping.keys.editor,
    "Five loops",
    fanOut(SCRIPTS, `if (event.payload.warm) return {};\n${LOOP}`),
  );
  const tag = { id: "tag", type: "auto.action.add_tag", params: { tag: "fulfilled" } };
  const plainId = await publishFlow(
    other.keys.editor,
    "Tag fulfilled orders",
    flow([{ id: "t", type: "auto.trigger.order_fulfilled" }, tag], [["t", "tag"]]),
  );
  const scoredId = await publishFlow(
    other.keys.editor,
    "Score, then tag",
    flow(
      [
        { id: "t", type: "auto.trigger.order_fulfilled" },
        { id: "score", type: "auto.action.code", params: { source: "return { score: entity.total * 2 };" } },
        tag,
      ],
      [
        ["t", "score"],
        ["score", "tag"],
      ],
    ),
  );

  // Warm: both threads of the worker's pool started (the first test's were replaced), one for
  // each shop, so neither shop's scripts wait for a thread to start in what is measured.
  const [warm] = await Promise.all([
    paced(other, "b-warm", 3, 100),
    fulfil(looping, "a-warm", "a-1", { warm: true }),
  ]);
  await settledRuns(scoredId, warm.size, 30_000);
  await settledRuns(loopsId, 1, 30_000);
  // Alone: shop B's events, 10 a second; each starts both of its flows.
  const alone = await paced(other, "b-alone", 20, 100);
  await settledRuns(plainId, warm.size + alone.size, 30_000);
  await settledRuns(scoredId, warm.size + alone.size, 30_000);
  const plainAlone = await settleTimes(plainId, alone);
  const scoredAlone = await settleTimes(scoredId, alone);

  // Shop A's events: their scripts loop to their CPU second, one after another (A's half of the pool).
  for (let i = 0; i < RUNS; i++) await fulfil(looping, `a-loops-${i}`, "a-1");
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
    .toBeGreaterThan(0);
  const during = await paced(other, "b-during", 50, 100);
  await settledRuns(plainId, warm.size + alone.size + during.size, 60_000);
  await settledRuns(scoredId, warm.size + alone.size + during.size, 60_000);
  const plainDuring = await settleTimes(plainId, during);
  const scoredDuring = await settleTimes(scoredId, during);

  // Shop A was still looping after B's last event settled, and each script that ended hit its limit.
  const ended = await getDb().execute<{ error: string }>(
    sql`select s.error from automation_run_steps s join automation_runs r on r.id = s.run_id
        where r.automation_id = ${loopsId} and r.event_id like 'a-loops-%'`,
  );
  expect(ended.length).toBeLessThan(RUNS * SCRIPTS);
  for (const { error } of ended) expect([CPU_STOP, WALL_STOP]).toContain(error);

  const figures = (ms: number[]) =>
    `p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`;
  console.log(
    `shop B's event → settled, order → tag: alone ${figures(plainAlone)}; while A loops ${figures(plainDuring)}. ` +
      `order → code → tag: alone ${figures(scoredAlone)}; while A loops ${figures(scoredDuring)} ` +
      `(${ended.length} of A's ${RUNS * SCRIPTS} scripts ended by then)`,
  );
  // A collapse check, not a speed figure (`npm run bench -- code` measures that): twenty looping
  // scripts on the worker's event loop would hold shop B's runs for their seconds back to back, and
  // a code step queued behind shop A's scripts would wait as long. A loaded machine's noise (a p99
  // of 1.5 s was seen once under a parallel build) stays inside the 10× margin.
  const collapse = (alone: number[]) => Math.max(2_000, 10 * percentile(alone, 99));
  expect(percentile(plainDuring, 99)).toBeLessThan(collapse(plainAlone));
  expect(percentile(scoredDuring, 99)).toBeLessThan(collapse(scoredAlone));
}, 120_000);
