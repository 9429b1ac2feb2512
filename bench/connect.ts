/**
 * `npm run bench -- connect`: a Shopify store's webhooks against the production web server and
 * worker processes as `npm start` runs them (SPEC §2 "Store connections"). A connection is made
 * through the public API; each delivery is a real-sized Shopify `orders/create`
 * (tests/fixtures/shopify/order.json, about 8 KB, a new order id each time) signed as Shopify signs
 * it. One flow listens, so both an event and a delivery start one run, as in `bench -- live`:
 *
 *   order_created ──▶ add_tag(connected)
 *
 * A delivery is answered once it is recorded and applied by the worker afterwards, so intake and
 * processing are measured apart, as two machines' worth of work that shares two cores otherwise:
 *
 *   1. intake, the web server and the database only (no worker yet), closed loops at concurrency
 *      32: `POST /api/v1/events` (`order.created` about one of 500 stored orders) accepted/s, then
 *      signed deliveries to `/api/connect/shopify/<token>` accepted/s, accept p50/p99, and the
 *      ratio of the two (target ≥ 0.50);
 *   2. processing: a worker process starts and applies the deliveries of (1): stored/s, from its
 *      start to the last delivery's `processed_at` (each one's order, events and run written);
 *   3. both at once, the backlog's runs done: signed deliveries at an open-loop BENCH_CONNECT_RATE
 *      per second, delivery → record stored p50/p99, from the client's send time to the
 *      delivery's `processed_at` (one machine, one clock).
 *
 * Sizes (env): BENCH_CONNECT_SECONDS (10; section 1, each side), BENCH_CONNECT_CONCURRENCY (32),
 * BENCH_CONNECT_RATE (50), BENCH_CONNECT_OPEN_SECONDS (20).
 */
import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { percentile, report, type Metrics } from "./harness";
import { startLiveApp } from "./live-app";
import { closedLoop, HttpClient, openLoop, wallMs, type Reply } from "./live-load";
import { publishFlow, putOrders } from "./live-shop";
import { startWorkers } from "./workers";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env("BENCH_CONNECT_SECONDS", 10);
const CONCURRENCY = env("BENCH_CONNECT_CONCURRENCY", 32);
const RATE = env("BENCH_CONNECT_RATE", 50);
const OPEN_SECONDS = env("BENCH_CONNECT_OPEN_SECONDS", 20);
const ORDERS = 500;
const TARGET_RATIO = 0.5;

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

const FIXTURE = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "..", "tests", "fixtures", "shopify", "order.json"), "utf8"),
) as Record<string, unknown>;

interface Store {
  path: string;
  secret: string;
  connectionId: string;
}

/** One signed `orders/create`, as Shopify sends it, for a new order `i` of this run. */
function delivery(store: Store, tag: string, i: number): { raw: string; headers: Record<string, string> } {
  const raw = JSON.stringify({ ...FIXTURE, id: `${tag}${i}`, name: `#${tag}-${i}` });
  return {
    raw,
    headers: {
      "content-type": "application/json",
      "X-Shopify-Topic": "orders/create",
      "X-Shopify-Hmac-Sha256": crypto.createHmac("sha256", store.secret).update(raw).digest("base64"),
      "X-Shopify-Event-Id": `${tag}-${i}`,
      "X-Shopify-Webhook-Id": crypto.randomUUID(),
    },
  };
}

type Loop = (
  concurrency: number,
  ms: number,
  send: (i: number) => Promise<Reply>,
) => ReturnType<typeof closedLoop>;

async function deliveries(
  client: HttpClient,
  store: Store,
  tag: string,
  loop: Loop,
  rate: number,
  ms: number,
) {
  const sentAt = new Map<string, number>();
  let accepted = 0;
  const result = await loop(rate, ms, async (i): Promise<Reply> => {
    const { raw, headers } = delivery(store, tag, i);
    sentAt.set(`${tag}-${i}`, wallMs());
    const reply = await client.send("POST", store.path, raw, headers);
    if (reply.status === 200) accepted++;
    return reply;
  });
  return { result, accepted, sentAt };
}

/** Waits until every delivery of the section is processed; each one's `processed_at`, by its key. */
async function processedTimes(sql: postgres.Sql, store: Store, tag: string, expected: number) {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const rows = await sql<{ key: string; ms: number; result: string }[]>`
      select dedupe_key as key, result, (extract(epoch from processed_at) * 1000)::float8 as ms
      from connection_deliveries
      where connection_id = ${store.connectionId} and starts_with(dedupe_key, ${`${tag}-`}) and result <> 'received'`;
    if (rows.length >= expected) return rows;
    if (Date.now() > deadline)
      throw new Error(`Only ${rows.length} of ${expected} deliveries were processed.`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function benchConnect(): Promise<void> {
  const app = await startLiveApp({ worker: false });
  const client = new HttpClient(app.baseUrl, app.apiKey, CONCURRENCY);
  const sql = postgres(app.databaseUrl, { max: 2, onnotice: () => {} });
  let stopWorkers = async () => {};
  try {
    const secret = crypto.randomBytes(24).toString("hex");
    const made = await client.expect<{ id: string; url: string }>("POST", "/api/v1/connections", [201], {
      platform: "shopify",
      name: `bench-${Date.now()}.myshopify.com`,
      secret,
    });
    const store: Store = { path: new URL(made.url).pathname, secret, connectionId: made.id };
    const tag = `b${Date.now()}`;
    await putOrders(client, "connect-", ORDERS, CONCURRENCY);
    await publishFlow(client, "Bench: tag new orders", {
      nodes: [
        { id: "t", type: "auto.trigger.order_created", params: {} },
        { id: "a", type: "auto.action.add_tag", params: { tag: "connected" } },
      ],
      edges: [{ id: "e1", source: "t", target: "a" }],
    });
    const event = (id: string, i: number) => ({
      id,
      type: "order.created",
      domain: "order",
      entityId: `connect-${i % ORDERS}`,
    });

    // 1. Intake. A warm-up of both first, unmeasured.
    await closedLoop(CONCURRENCY, 3_000, (i) =>
      client.request("POST", "/api/v1/events", event(`${tag}-w-${i}`, i)),
    );
    const warm = await deliveries(client, store, `${tag}w`, closedLoop, CONCURRENCY, 3_000);
    let events = 0;
    const baseline = await closedLoop(CONCURRENCY, SECONDS * 1000, async (i) => {
      const reply = await client.request("POST", "/api/v1/events", event(`${tag}-e-${i}`, i));
      if (reply.status === 201) events++;
      return reply;
    });
    const eventsPerSecond = events / baseline.seconds;
    console.log(`intake: ${round(eventsPerSecond)} events/s accepted`);
    const closed = await deliveries(client, store, `${tag}c`, closedLoop, CONCURRENCY, SECONDS * 1000);
    const acceptedPerSecond = closed.accepted / closed.result.seconds;
    console.log(`intake: ${round(acceptedPerSecond)} deliveries/s accepted`);

    // 2. Processing: a worker applies the backlog (the events' runs are in it too).
    const alive = async () => {
      const res = await fetch(`${app.baseUrl}/api/health?scope=web`);
      const body = (await res.json()) as { workerDetail?: { running?: number } | null };
      return body.workerDetail?.running ?? 0;
    };
    const startedMs = wallMs();
    const workers = await startWorkers(1, app.databaseUrl, alive);
    stopWorkers = () => workers.stop();
    await processedTimes(sql, store, `${tag}w`, warm.accepted);
    const closedDone = await processedTimes(sql, store, `${tag}c`, closed.accepted);
    const lastProcessed = Math.max(...closedDone.map((r) => r.ms));
    const storedPerSecond = closedDone.length / ((lastProcessed - startedMs) / 1000);
    console.log(`processing: ${round(storedPerSecond)} deliveries/s stored`);

    // 3. Both at once, at a steady rate, once the runs of (1) are done too.
    const drainDeadline = Date.now() + 10 * 60_000;
    while (Date.now() < drainDeadline) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from automation_runs where status in ('queued', 'running')`;
      if (row!.n === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const open = await deliveries(client, store, `${tag}o`, openLoop, RATE, OPEN_SECONDS * 1000);
    const openDone = await processedTimes(sql, store, `${tag}o`, open.accepted);
    const latencies = openDone.map((r) => r.ms - (open.sentAt.get(r.key) ?? r.ms)).sort((a, b) => a - b);

    const all = [...closedDone, ...openDone];
    const ratio = acceptedPerSecond / eventsPerSecond;
    const metrics: Metrics = {
      eventsAcceptedPerSecond: round(eventsPerSecond),
      deliveriesAcceptedPerSecond: round(acceptedPerSecond),
      deliveryAcceptP50Ms: round(percentile(closed.result.latencies, 50), 1),
      deliveryAcceptP99Ms: round(percentile(closed.result.latencies, 99), 1),
      deliveriesRefused: closed.result.done - closed.accepted + closed.result.failed,
      deliveriesStoredPerSecond: round(storedPerSecond),
      deliveriesApplied: all.filter((r) => r.result === "applied").length,
      deliveriesNotApplied: all.filter((r) => r.result !== "applied").length,
      openRatePerSecond: RATE,
      openAcceptP99Ms: round(percentile(open.result.latencies, 99), 1),
      deliveryToStoredP50Ms: round(percentile(latencies, 50), 1),
      deliveryToStoredP99Ms: round(percentile(latencies, 99), 1),
      ratioToEvents: round(ratio, 3),
      targetRatioToEvents: TARGET_RATIO,
      meetsTarget: ratio >= TARGET_RATIO,
    };
    report("connect", metrics);
  } finally {
    client.close();
    await stopWorkers();
    await sql.end();
    await app.stop();
  }
}
