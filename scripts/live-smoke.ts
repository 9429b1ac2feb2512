/**
 * The live smoke of `npm test` (after the build): a guard against collapse, not a benchmark. The
 * production web server and worker as `npm start` runs them (bench/live-app.ts), two flows on
 * `order.fulfilled` — one tags the order, one waits 2 days — and the shop's other listeners paused:
 *
 *   1. a shop with waiting runs: 20 arrays of 1,000 events (20,000 paused runs), settled;
 *   2. 50 events/s, one at a time, for 5 s (open loop): event → tag run settled.
 *
 * Fails if any run fails, if a waiting run is not `waiting`, or if the p99 of (2) is over 1.5 s —
 * ten times the knee's 150 ms bar, so only a collapse trips it (before the fix of the live path a
 * steady stream with a waiting flow settled seconds late, growing with time). Prints its figures.
 */
import { percentile } from "../bench/harness";
import { startLiveApp } from "../bench/live-app";
import { HttpClient, openLoop, wallMs } from "../bench/live-load";
import { RunWatcher } from "../bench/live-runs";
import { publishFlow, putOrders } from "../bench/live-shop";

const RATE = 50;
const SECONDS = 5;
const ORDERS = 500;
const ARRAYS = 20;
const ARRAY_SIZE = 1_000;
const LIMIT_MS = 1_500;

const chain = (trigger: string, ...steps: { id: string; type: string; params: object }[]) => ({
  nodes: [{ id: "t", type: trigger, params: {} }, ...steps],
  edges: steps.map((step, i) => ({ id: `e${i}`, source: i === 0 ? "t" : steps[i - 1]!.id, target: step.id })),
});

async function main(): Promise<void> {
  const app = await startLiveApp();
  const client = new HttpClient(app.baseUrl, app.apiKey, 32);
  let tagRuns: RunWatcher | null = null;
  let waitRuns: RunWatcher | null = null;
  try {
    await putOrders(client, "smoke-", ORDERS, 32);
    const tagId = await publishFlow(
      client,
      "Smoke: tag fulfilled orders",
      chain("auto.trigger.order_fulfilled", {
        id: "a",
        type: "auto.action.add_tag",
        params: { tag: "smoke" },
      }),
    );
    const waitId = await publishFlow(
      client,
      "Smoke: wait 2 days after fulfilment",
      chain(
        "auto.trigger.order_fulfilled",
        { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
        { id: "a", type: "auto.action.add_tag", params: { tag: "followed-up" } },
      ),
    );
    tagRuns = new RunWatcher(app.databaseUrl, tagId);
    waitRuns = new RunWatcher(app.databaseUrl, waitId);
    for (const other of await tagRuns.otherListeners("order.fulfilled")) {
      if (other !== waitId) await client.expect("POST", `/api/v1/automations/${other}/pause`, [200]);
    }

    const event = (id: string, i: number) => ({
      id,
      type: "order.fulfilled",
      domain: "order",
      entityId: `smoke-${i % ORDERS}`,
    });
    tagRuns.begin("smoke-a-");
    for (let a = 0; a < ARRAYS; a++) {
      const batch = Array.from({ length: ARRAY_SIZE }, (_, j) => event(`smoke-a-${a * ARRAY_SIZE + j}`, j));
      await client.expect("POST", "/api/v1/events", [201], batch);
    }
    await tagRuns.drain("smoke-a-", ARRAYS * ARRAY_SIZE);

    tagRuns.begin("smoke-o-");
    const sentAt = new Map<string, number>();
    const sent = await openLoop(RATE, SECONDS * 1000, (i) => {
      const id = `smoke-o-${i}`;
      sentAt.set(id, wallMs());
      return client.request("POST", "/api/v1/events", event(id, i));
    });
    const settled = await tagRuns.drain("smoke-o-", RATE * SECONDS, 120_000);
    const finished = await tagRuns.finishTimes("smoke-o-");
    const latencies = [...finished].map(([id, ms]) => ms - sentAt.get(id)!).sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const expectedWaiting = ARRAYS * ARRAY_SIZE + RATE * SECONDS;
    let waiting = 0;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      waiting = await waitRuns.countStatus("waiting");
      if (waiting >= expectedWaiting) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(
      `live smoke: ${RATE} events/s for ${SECONDS}s with a waiting flow on the same event: ` +
        `event → settled p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (limit ${LIMIT_MS} ms); ` +
        `accept p99 ${percentile(sent.latencies, 99).toFixed(0)} ms; ${waiting} runs waiting.`,
    );
    const problems = [
      ...(sent.failed > 0 ? [`${sent.failed} requests failed`] : []),
      ...(settled.succeeded !== settled.settled
        ? [`${settled.settled - settled.succeeded} runs did not succeed`]
        : []),
      ...(waiting !== expectedWaiting ? [`${waiting} runs waiting, not ${expectedWaiting}`] : []),
      ...(p99 > LIMIT_MS ? [`p99 ${p99.toFixed(0)} ms is over ${LIMIT_MS} ms: live traffic collapsed`] : []),
    ];
    if (problems.length > 0) {
      console.error(`live smoke failed: ${problems.join("; ")}.`);
      process.exitCode = 1;
    }
  } finally {
    client.close();
    await tagRuns?.close();
    await waitRuns?.close();
    await app.stop();
  }
}

await main();
