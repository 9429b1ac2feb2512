/**
 * `npm run bench -- connect`: a Shopify store's webhooks against the production web server and
 * worker as `npm start` runs them (SPEC §2 "Store connections"). A connection is made through the
 * public API; each delivery is a real-sized Shopify `orders/create` (tests/fixtures/shopify/order.json,
 * about 8 KB, a new order id each time) signed as Shopify signs it. In order:
 *
 *   1. `POST /api/v1/events`, closed loop at concurrency 32: single events accepted/s (the baseline);
 *   2. signed deliveries to `/api/connect/shopify/<token>`, closed loop at concurrency 32:
 *      accepted/s, accept p50/p99, and the ratio to (1) (target ≥ 0.50);
 *   3. signed deliveries at an open-loop BENCH_CONNECT_RATE per second: delivery → record stored
 *      p50/p99, from the client's send time to the delivery's `processed_at` (the transaction that
 *      stored the order and its events; one machine, one clock).
 *
 * Sizes (env): BENCH_CONNECT_SECONDS (10; sections 1 and 2), BENCH_CONNECT_CONCURRENCY (32),
 * BENCH_CONNECT_RATE (50), BENCH_CONNECT_OPEN_SECONDS (20).
 */
import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { percentile, report, type Metrics } from "./harness";
import { startLiveApp } from "./live-app";
import { closedLoop, HttpClient, openLoop, wallMs, type Reply } from "./live-load";
import { putOrders } from "./live-shop";

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

async function deliveries(
  client: HttpClient,
  store: Store,
  tag: string,
  send: typeof closedLoop,
  ...args: [number, number]
) {
  const sentAt = new Map<string, number>();
  let accepted = 0;
  const result = await send(args[0], args[1], async (i): Promise<Reply> => {
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
  const app = await startLiveApp();
  const client = new HttpClient(app.baseUrl, app.apiKey, CONCURRENCY);
  const sql = postgres(app.databaseUrl, { max: 2, onnotice: () => {} });
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

    // Warm-up: both paths, unmeasured.
    await closedLoop(CONCURRENCY, 3_000, (i) =>
      client.request("POST", "/api/v1/events", {
        type: "order.updated",
        domain: "order",
        entityId: `connect-${i % ORDERS}`,
      }),
    );
    const warm = await deliveries(client, store, `${tag}w`, closedLoop, CONCURRENCY, 3_000);
    await processedTimes(sql, store, `${tag}w`, warm.accepted);

    let events = 0;
    const baseline = await closedLoop(CONCURRENCY, SECONDS * 1000, async (i) => {
      const reply = await client.request("POST", "/api/v1/events", {
        id: `${tag}-e-${i}`,
        type: "order.updated",
        domain: "order",
        entityId: `connect-${i % ORDERS}`,
      });
      if (reply.status === 201) events++;
      return reply;
    });
    const eventsPerSecond = events / baseline.seconds;
    console.log(`events: ${round(eventsPerSecond)}/s accepted`);

    const closed = await deliveries(client, store, `${tag}c`, closedLoop, CONCURRENCY, SECONDS * 1000);
    const acceptedPerSecond = closed.accepted / closed.result.seconds;
    const closedDone = await processedTimes(sql, store, `${tag}c`, closed.accepted);
    const lastProcessed = Math.max(...closedDone.map((r) => r.ms));
    const firstSent = Math.min(...closed.sentAt.values());
    console.log(`deliveries: ${round(acceptedPerSecond)}/s accepted`);

    const open = await deliveries(client, store, `${tag}o`, openLoop, RATE, OPEN_SECONDS * 1000);
    const openDone = await processedTimes(sql, store, `${tag}o`, open.accepted);
    const latencies = openDone.map((r) => r.ms - (open.sentAt.get(r.key) ?? r.ms)).sort((a, b) => a - b);

    const ratio = acceptedPerSecond / eventsPerSecond;
    const metrics: Metrics = {
      eventsAcceptedPerSecond: round(eventsPerSecond),
      deliveriesAcceptedPerSecond: round(acceptedPerSecond),
      deliveryAcceptP50Ms: round(percentile(closed.result.latencies, 50), 1),
      deliveryAcceptP99Ms: round(percentile(closed.result.latencies, 99), 1),
      deliveriesRefused: closed.result.done - closed.accepted + closed.result.failed,
      deliveriesStoredPerSecond: round(closedDone.length / ((lastProcessed - firstSent) / 1000)),
      deliveriesApplied: [...closedDone, ...openDone].filter((r) => r.result === "applied").length,
      deliveriesNotApplied: [...closedDone, ...openDone].filter((r) => r.result !== "applied").length,
      openRatePerSecond: RATE,
      deliveryToStoredP50Ms: round(percentile(latencies, 50), 1),
      deliveryToStoredP99Ms: round(percentile(latencies, 99), 1),
      ratioToEvents: round(ratio, 3),
      targetRatioToEvents: TARGET_RATIO,
      meetsTarget: ratio >= TARGET_RATIO,
    };
    report("connect", metrics);
  } finally {
    client.close();
    await sql.end();
    await app.stop();
  }
}
