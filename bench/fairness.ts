// Over 400 lines on purpose: one benchmark read top to bottom — its shops, its scenarios and the verdicts.
/**
 * `npm run bench -- fairness` (issue 46): does one shop's flood hold up the other shops' runs?
 * Against the app exactly as `npm start` runs it (bench/live-app.ts: a fresh data dir, the
 * production web server, worker and embedded database), with shops made by the operator's CLI
 * (`tillflow tenant create`, `tillflow api-key create --role editor`). Each shop has its own orders
 * (PUT) and publishes `bench -- live`'s flow over the public API:
 *
 *   order_fulfilled ──▶ total > 10 ──true──▶ add_tag(live)
 *
 * Shop A floods; shop B (and in the last scenario 18 more) is quiet: single `order.fulfilled`
 * events at a steady rate, each measured from the client's send to its run's `finished_at`
 * (event → settled; one machine, one clock). In order:
 *
 *   1. B alone: B at BENCH_FAIR_QUIET_RATE events/s for BENCH_FAIR_SECONDS: p50/p99.
 *   2. A alone: BENCH_FAIR_FLOOD events in arrays of 500, BENCH_FAIR_FLOOD_CONCURRENCY arrays in
 *      flight, as fast as the API takes them, B silent: A's runs/s (runs settled / time from the
 *      first post to the last run settled).
 *      Then the same flood with B sending throughout: B's p50/p99 over the events it sent between
 *      A's first post and A's last run settled, and A's runs/s.
 *   3. The flood split: BENCH_FAIR_SPLIT published copies of the flow in A (default 50), and
 *      FLOOD / SPLIT events, so each event starts SPLIT runs and the runs total the same (in
 *      arrays of 500 / SPLIT events: each request still starts about 500 runs); B's p50/p99
 *      during it. Splitting must change nothing for the neighbours.
 *   4. A schedule fan-out: A publishes `schedule (audience: accepts marketing) ──▶ add_tag`, with
 *      BENCH_FAIR_FANOUT customers (default the flood's size, each PUT over the API during set-up;
 *      their writes are spread over several API keys, as the write limit is 12,000 a minute per
 *      key), and fires it with `POST /api/v1/automations/:id/run-now` — the path the 9:00 cron
 *      takes; B's p50/p99 during it and A's runs/s. BENCH_FAIR_FANOUT=0 skips it.
 *   5. BENCH_FAIR_SHOPS shops (default 20): A and SHOPS − 1 quiet ones, each at
 *      BENCH_FAIR_MANY_RATE events/s (default QUIET_RATE / 10, so 19/s in all): the quiet shops'
 *      pooled p50/p99 (and the worst shop's p99) alone for BENCH_FAIR_SECONDS, then during A's
 *      unsplit flood.
 *
 * Verdicts (issue 46), each a PASS/FAIL line: the quiet p99 during a flood ≤ max(2 × its p99
 * alone, 250 ms), for every flood; A during the flood ≥ 90 % of its runs/s alone (two and twenty
 * shops); the split flood's quiet p99 ≤ max(1.1 × the unsplit flood's, 250 ms). The bench only
 * measures: on an app without fair share it runs to the end and reports FAIL.
 *
 * Sizes (env): BENCH_FAIR_FLOOD (100000), BENCH_FAIR_QUIET_RATE (10), BENCH_FAIR_SECONDS (30),
 * BENCH_FAIR_SPLIT (50), BENCH_FAIR_FANOUT (= FLOOD; 0 skips), BENCH_FAIR_SHOPS (20; below 3
 * skips scenario 5), BENCH_FAIR_MANY_RATE (QUIET_RATE / 10), BENCH_FAIR_FLOOD_CONCURRENCY (4),
 * BENCH_FAIR_ORDERS (2000, the orders A's events cycle over), BENCH_LIVE_KEEP=1 (keep the data
 * dir and log). A quick try: BENCH_FAIR_FLOOD=5000 BENCH_FAIR_SECONDS=5 BENCH_FAIR_SHOPS=5
 * BENCH_FAIR_FANOUT=2000 (about 6 minutes on a busy 2-core machine, most of it starting the app and
 * running the CLI). At the defaults set-up dominates: 40 CLI calls and 100,000 customer PUTs
 * (minutes on a quiet machine, half an hour on a busy one), then five floods of 100,000 runs.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { percentile, report, type Metrics } from "./harness";
import { startLiveApp, type LiveApp } from "./live-app";
import { HttpClient, wallMs } from "./live-load";
import { publishFlow, putOrders, TAG_FULFILLED_FLOW } from "./live-shop";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const FLOOD = env("BENCH_FAIR_FLOOD", 100_000);
const QUIET_RATE = env("BENCH_FAIR_QUIET_RATE", 10);
const SECONDS = env("BENCH_FAIR_SECONDS", 30);
const SPLIT = env("BENCH_FAIR_SPLIT", 50);
const FANOUT = env("BENCH_FAIR_FANOUT", FLOOD);
const SHOPS = env("BENCH_FAIR_SHOPS", 20);
const MANY_RATE = env("BENCH_FAIR_MANY_RATE", QUIET_RATE / 10);
const FLOOD_CONCURRENCY = env("BENCH_FAIR_FLOOD_CONCURRENCY", 4);
const ORDERS = env("BENCH_FAIR_ORDERS", 2_000);
const ARRAY_SIZE = 500;
/** Orders of each quiet shop: its events cycle over them. */
const QUIET_ORDERS = 50;
/** The floor of the quiet shops' bar: below it a p99 is fine whatever it was alone (issue 46). */
const FLOOR_MS = 250;
/** Writes per customer key, under the API's 12,000 writes a minute per key. */
const WRITES_PER_KEY = 10_000;
const OPEN = ["queued", "running", "waiting", "held"];
const SUCCEEDED = "succeeded";

const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const run = promisify(execFile);

// A cron that never comes round during a bench: only "Run now" fires it.
const FANOUT_FLOW = {
  nodes: [
    {
      id: "t",
      type: "auto.trigger.schedule",
      params: { cron: "0 9 1 1 *", timezone: "UTC", audience: { acceptsMarketing: true } },
    },
    { id: "a", type: "auto.action.add_tag", params: { tag: "fanned" } },
  ],
  edges: [{ id: "e1", source: "t", target: "a" }],
};

interface Shop {
  slug: string;
  tenantId: string;
  client: HttpClient;
  /** Extra API keys' clients, for writes beyond one key's limit (the fan-out's customers). */
  writers: HttpClient[];
  orders: number;
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function inTurn<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** The operator's CLI against the app's own embedded database (as bench/live-app.ts makes its key). */
async function cli(app: LiveApp, args: string[]): Promise<string> {
  const cliEnv: NodeJS.ProcessEnv = { ...process.env, TILLFLOW_DATA_DIR: app.dataDir };
  delete cliEnv.DATABASE_URL;
  const { stdout } = await run(process.execPath, [path.join(process.cwd(), "bin/tillflow.mjs"), ...args], {
    cwd: process.cwd(),
    env: cliEnv,
    encoding: "utf8",
  });
  return stdout.trim().split("\n").at(-1)!.trim();
}

async function apiKey(app: LiveApp, slug: string, name: string): Promise<string> {
  const key = await cli(app, ["api-key", "create", "--tenant", slug, "--role", "editor", "--name", name]);
  if (!key.startsWith("tf_")) throw new Error(`The CLI printed no API key for '${slug}': ${key}`);
  return key;
}

/** A shop made by the CLI, with its orders and the tag flow published over the API. */
async function createShop(app: LiveApp, slug: string, orders: number, writers: number): Promise<Shop> {
  const created = await cli(app, ["tenant", "create", slug, "--name", `Bench ${slug}`]);
  const tenantId = /\(([^)]+)\)\.?$/.exec(created)?.[1];
  if (!tenantId) throw new Error(`The CLI did not name the shop it created: ${created}`);
  const client = new HttpClient(app.baseUrl, await apiKey(app, slug, "bench-fairness"), 64);
  const writerClients: HttpClient[] = [];
  for (let i = 0; i < writers; i++) {
    writerClients.push(new HttpClient(app.baseUrl, await apiKey(app, slug, `bench-fairness-${i}`), 4));
  }
  await putOrders(client, `${slug}-`, orders, 8);
  await publishFlow(client, "Bench: tag fulfilled orders", TAG_FULFILLED_FLOW);
  return { slug, tenantId, client, writers: writerClients, orders };
}

/** Customers who accept marketing, each PUT over the API, spread over the shop's writer keys. */
async function putCustomers(shop: Shop, count: number): Promise<void> {
  const ids = Array.from({ length: count }, (_, i) => i);
  await inTurn(ids, 16, async (i) => {
    const writer = shop.writers[Math.floor(i / WRITES_PER_KEY)]!;
    await writer.expect("PUT", `/api/v1/entities/customer/cus-${i}`, [200, 201], {
      email: `c${i}@${shop.slug}.test`,
      name: `Customer ${i}`,
      acceptsMarketing: true,
    });
  });
}

function orderEvent(shop: Shop, id: string, i: number) {
  return { id, type: "order.fulfilled", domain: "order", entityId: `${shop.slug}-${i % shop.orders}` };
}

/** The app's runs, read-only from this process: a section's runs are its shops' runs whose event id has its prefix. */
class Runs {
  private readonly sql: postgres.Sql;

  constructor(databaseUrl: string) {
    this.sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  }

  /** Runs not yet final: a cheap poll (the status index), however many have settled. */
  async open(tenants: string[], prefix: string, since: Date): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from automation_runs
      where tenant_id = any(${tenants}) and status = any(${OPEN}) and created_at >= ${since}
        and starts_with(event_id, ${prefix})`;
    return row!.n;
  }

  async totals(tenants: string[], prefix: string, since: Date) {
    const [row] = await this.sql<{ runs: number; open: number; succeeded: number; last: number | null }[]>`
      select count(*)::int as runs,
             (count(*) filter (where status = any(${OPEN})))::int as open,
             (count(*) filter (where status = ${SUCCEEDED}))::int as succeeded,
             (extract(epoch from max(finished_at)) * 1000)::float8 as last
      from automation_runs
      where tenant_id = any(${tenants}) and created_at >= ${since} and starts_with(event_id, ${prefix})`;
    return { ...row!, last: row!.last === null ? NaN : Number(row!.last) };
  }

  /** Waits until at least `expected` runs exist and none is open; polls the open count only. */
  async drain(tenants: string[], prefix: string, since: Date, expected: number, timeoutMs = 1_800_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await this.open(tenants, prefix, since)) === 0) {
        const totals = await this.totals(tenants, prefix, since);
        if (totals.runs >= expected && totals.open === 0) return totals;
      }
      if (Date.now() > deadline) {
        const { runs, open } = await this.totals(tenants, prefix, since);
        throw new Error(
          `Runs of '${prefix}' did not settle in time: ${open} open of ${runs} (want ${expected}).`,
        );
      }
      await sleep(250);
    }
  }

  /** When each settled run was created (its event recorded), started and finished, in epoch ms. */
  async times(tenants: string[], prefix: string, since: Date): Promise<Map<string, RunTimes>> {
    const rows = await this.sql<{ event_id: string; created: number; started: number; finished: number }[]>`
      select event_id, (extract(epoch from created_at) * 1000)::float8 as created,
             (extract(epoch from coalesce(started_at, finished_at)) * 1000)::float8 as started,
             (extract(epoch from finished_at) * 1000)::float8 as finished
      from automation_runs
      where tenant_id = any(${tenants}) and created_at >= ${since} and starts_with(event_id, ${prefix})
        and finished_at is not null`;
    return new Map(
      rows.map((r) => [
        r.event_id,
        { created: Number(r.created), started: Number(r.started), finished: Number(r.finished) },
      ]),
    );
  }

  async close(): Promise<void> {
    await this.sql.end();
  }
}

interface RunTimes {
  created: number;
  started: number;
  finished: number;
}

interface Sent {
  shop: Shop;
  id: string;
  at: number;
  /** The reply's status; 0 until it is in, or when the request failed. */
  status: number;
  /** When the reply came (epoch ms); NaN until it is in. */
  repliedAt: number;
}

/**
 * Single events to `shops` in turn, `perSecond` in all, from now until `stop()` (an open loop: a
 * slow reply never delays the next send); `stop()` resolves with every send once its reply is in.
 */
function steady(shops: Shop[], perSecond: number, prefix: string): { stop(): Promise<Sent[]> } {
  const sent: Sent[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const tick = () => {
    const due = Math.floor(((performance.now() - started) * perSecond) / 1000) + 1;
    while (sent.length < due) {
      const i = sent.length;
      const shop = shops[i % shops.length]!;
      const record: Sent = { shop, id: `${prefix}${i}`, at: wallMs(), status: 0, repliedAt: NaN };
      sent.push(record);
      const body = orderEvent(shop, record.id, Math.floor(i / shops.length));
      pending.push(
        shop.client.request("POST", "/api/v1/events", body).then(
          (reply) => {
            record.status = reply.status;
            record.repliedAt = wallMs();
          },
          () => {},
        ),
      );
    }
  };
  const timer = setInterval(tick, 5);
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return sent;
    },
  };
}

interface Quiet {
  events: number;
  refused: number;
  p50: number;
  p99: number;
  max: number;
  over250: number;
  /** The worst single shop's p99 (several quiet shops). */
  worstShopP99: number;
  /**
   * Where the time went, p50 and p99 of each part: `replied` from the send to the reply (the
   * request, its commit included), `queued` from the run's row (its transaction's start) to its
   * leg's start (the commit, the queue and the worker's batches), `ran` from there to its end.
   */
  phases: Record<"replied" | "queued" | "ran", { p50: number; p99: number }>;
}

/** Drains the quiet shops' runs, then event → settled of the events sent within [fromMs, toMs]. */
async function quietLatencies(
  runs: Runs,
  shops: Shop[],
  sent: Sent[],
  prefix: string,
  since: Date,
  fromMs = -Infinity,
  toMs = Infinity,
): Promise<Quiet> {
  const tenants = shops.map((s) => s.tenantId);
  const accepted = sent.filter((s) => s.status === 201);
  const refused = sent.filter((s) => s.status !== 201 && s.at >= fromMs && s.at <= toMs);
  if (refused.length) {
    const statuses = [...new Set(refused.map((s) => s.status || "no reply"))].join(", ");
    console.warn(`${refused.length} quiet event(s) of '${prefix}' were refused (${statuses}).`);
  }
  await runs.drain(tenants, prefix, since, accepted.length);
  const times = await runs.times(tenants, prefix, since);
  const window = accepted.filter((s) => s.at >= fromMs && s.at <= toMs);
  const byShop = new Map<string, number[]>();
  const all: number[] = [];
  const parts = { replied: [] as number[], queued: [] as number[], ran: [] as number[] };
  for (const s of window) {
    const t = times.get(s.id)!;
    const ms = t.finished - s.at;
    all.push(ms);
    byShop.set(s.shop.slug, [...(byShop.get(s.shop.slug) ?? []), ms]);
    parts.replied.push(s.repliedAt - s.at);
    parts.queued.push(t.started - t.created);
    parts.ran.push(t.finished - t.started);
  }
  const spread = (l: number[]) => {
    l.sort((a, b) => a - b);
    return { p50: round(percentile(l, 50), 1), p99: round(percentile(l, 99), 1) };
  };
  all.sort((a, b) => a - b);
  const shopP99s = [...byShop.values()].map((l) =>
    percentile(
      l.sort((a, b) => a - b),
      99,
    ),
  );
  return {
    events: window.length,
    refused: refused.length,
    p50: round(percentile(all, 50), 1),
    p99: round(percentile(all, 99), 1),
    max: round(all.at(-1) ?? NaN, 1),
    over250: all.filter((ms) => ms > FLOOR_MS).length,
    worstShopP99: shopP99s.length ? round(Math.max(...shopP99s), 1) : NaN,
    phases: { replied: spread(parts.replied), queued: spread(parts.queued), ran: spread(parts.ran) },
  };
}

/** B (or the quiet shops) alone for SECONDS. */
async function quietAlone(runs: Runs, shops: Shop[], rate: number, prefix: string): Promise<Quiet> {
  const since = new Date(Date.now() - 5_000);
  const sender = steady(shops, rate, prefix);
  await sleep(SECONDS * 1000);
  return quietLatencies(runs, shops, await sender.stop(), prefix, since);
}

interface Flood {
  runs: number;
  failed: number;
  seconds: number;
  runsPerSecond: number;
  firstMs: number;
  lastSettledMs: number;
}

/** Posts `events` in arrays of `size`, FLOOD_CONCURRENCY at a time, as fast as the API answers. */
async function postArrays(shop: Shop, prefix: string, events: number, size = ARRAY_SIZE): Promise<void> {
  const arrays = Array.from({ length: Math.ceil(events / size) }, (_, a) => a);
  await inTurn(arrays, FLOOD_CONCURRENCY, async (a) => {
    const first = a * size;
    const batch = Array.from({ length: Math.min(size, events - first) }, (_, j) =>
      orderEvent(shop, `${prefix}${first + j}`, first + j),
    );
    const reply = await shop.client.request("POST", "/api/v1/events", batch);
    if (reply.status !== 201) {
      throw new Error(`An array of ${batch.length} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    }
  });
}

/** Starts a flood in A and returns its runs' event-id prefix and how many runs it makes. */
type StartFlood = () => Promise<{ prefix: string; expected: number }>;

/** A flood, with `quiet` shops sending `rate` events/s from its first post to its last run settled. */
async function floodWith(
  runs: Runs,
  a: Shop,
  start: StartFlood,
  quiet: Shop[],
  rate: number,
  quietPrefix: string,
): Promise<{ flood: Flood; quiet: Quiet | null }> {
  const since = new Date(Date.now() - 5_000);
  const sender = quiet.length ? steady(quiet, rate, quietPrefix) : null;
  const firstMs = wallMs();
  const { prefix, expected } = await start();
  const settled = await runs.drain([a.tenantId], prefix, since, expected);
  const seconds = (settled.last - firstMs) / 1000;
  const flood: Flood = {
    runs: settled.runs,
    failed: settled.runs - settled.succeeded,
    seconds: round(seconds, 2),
    runsPerSecond: round(settled.runs / seconds),
    firstMs,
    lastSettledMs: settled.last,
  };
  if (!sender) return { flood, quiet: null };
  const sent = await sender.stop();
  return { flood, quiet: await quietLatencies(runs, quiet, sent, quietPrefix, since, firstMs, settled.last) };
}

/**
 * `events` in arrays, each event starting `perEvent` runs: the arrays are `500 / perEvent` events
 * long, so every request starts about 500 runs however the flood is split, and the split flood
 * differs from the unsplit one in its automations only.
 */
const arrayFlood =
  (a: Shop, prefix: string, events: number, perEvent = 1): StartFlood =>
  async () => {
    await postArrays(a, prefix, events, Math.max(1, Math.ceil(ARRAY_SIZE / perEvent)));
    return { prefix, expected: events * perEvent };
  };

const fanOut =
  (a: Shop, automationId: string): StartFlood =>
  async () => {
    const fire = await a.client.expect<{ id: string }>(
      "POST",
      `/api/v1/automations/${automationId}/run-now`,
      [202],
      {},
    );
    return { prefix: `schedule:${fire.id}:`, expected: FANOUT };
  };

/** The bar for a quiet p99 during a flood (issue 46). */
const bound = (alone: Quiet) => Math.max(2 * alone.p99, FLOOR_MS);

interface Row {
  label: string;
  quiet?: Quiet | null;
  flood?: Flood;
}

function printTable(rows: Row[]): void {
  const cell = (v: number | undefined, w: number) => (v === undefined ? "–" : String(round(v))).padStart(w);
  console.log(
    `\nfairness\n  ${"scenario".padEnd(34)}${"events".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}` +
      `${">250ms".padStart(8)}${"worst p99".padStart(11)}${"A runs".padStart(9)}${"A runs/s".padStart(10)}`,
  );
  for (const { label, quiet, flood } of rows) {
    console.log(
      `  ${label.padEnd(34)}${cell(quiet?.events, 8)}${cell(quiet?.p50, 9)}${cell(quiet?.p99, 9)}` +
        `${cell(quiet?.over250, 8)}${cell(quiet?.worstShopP99, 11)}${cell(flood?.runs, 9)}${cell(flood?.runsPerSecond, 10)}`,
    );
    if (quiet) {
      const { replied, queued, ran } = quiet.phases;
      console.log(
        `  ${"".padEnd(4)}p50/p99 ms: replied ${round(replied.p50)}/${round(replied.p99)}, ` +
          `queued ${round(queued.p50)}/${round(queued.p99)}, ran ${round(ran.p50)}/${round(ran.p99)}`,
      );
    }
  }
}

function put(metrics: Metrics, name: string, quiet: Quiet | null | undefined, flood?: Flood): void {
  if (quiet) {
    metrics[`${name}QuietEvents`] = quiet.events;
    metrics[`${name}QuietRefused`] = quiet.refused;
    metrics[`${name}QuietP50Ms`] = quiet.p50;
    metrics[`${name}QuietP99Ms`] = quiet.p99;
    metrics[`${name}QuietMaxMs`] = quiet.max;
    metrics[`${name}QuietOver250Ms`] = quiet.over250;
    metrics[`${name}QuietWorstShopP99Ms`] = quiet.worstShopP99;
    for (const [phase, { p50, p99 }] of Object.entries(quiet.phases)) {
      metrics[`${name}Quiet${phase[0]!.toUpperCase()}${phase.slice(1)}P50Ms`] = p50;
      metrics[`${name}Quiet${phase[0]!.toUpperCase()}${phase.slice(1)}P99Ms`] = p99;
    }
  }
  if (flood) {
    metrics[`${name}FloodRuns`] = flood.runs;
    metrics[`${name}FloodRunsFailed`] = flood.failed;
    metrics[`${name}FloodSeconds`] = flood.seconds;
    metrics[`${name}FloodRunsPerSecond`] = flood.runsPerSecond;
  }
}

export async function benchFairness(): Promise<void> {
  const began = performance.now();
  // Progress lines carry the seconds since the bench began: a default run takes a while.
  const step = (words: string) =>
    console.log(`[${Math.round((performance.now() - began) / 1000)}s] ${words}`);
  const app = await startLiveApp();
  let runs: Runs | null = null;
  const shops: Shop[] = [];
  try {
    runs = new Runs(app.databaseUrl);
    const tag = `fair${Date.now().toString(36)}`;
    const manyCount = SHOPS >= 3 ? SHOPS - 2 : 0;
    step(`Creating ${2 + manyCount} shops with the CLI…`);
    const a = await createShop(app, "fair-a", ORDERS, Math.ceil(FANOUT / WRITES_PER_KEY));
    const b = await createShop(app, "fair-b", QUIET_ORDERS, 0);
    shops.push(a, b);
    const slugs = Array.from({ length: manyCount }, (_, i) => `fair-q${String(i + 1).padStart(2, "0")}`);
    await inTurn(slugs, 3, async (slug) => void shops.push(await createShop(app, slug, QUIET_ORDERS, 0)));
    const quietMany = shops.filter((s) => s !== a);
    if (FANOUT > 0) {
      step(`Putting ${FANOUT} customers in A for the fan-out…`);
      await putCustomers(a, FANOUT);
    }

    // Warm the routes and the worker up (not measured): every quiet shop and two of A's arrays.
    step("Warming up…");
    const warmSince = new Date(Date.now() - 5_000);
    const warm = steady(quietMany, 20, `${tag}-w-`);
    await postArrays(a, `${tag}-wa-`, 2 * ARRAY_SIZE);
    await sleep(3_000);
    await quietLatencies(runs, quietMany, await warm.stop(), `${tag}-w-`, warmSince);
    await runs.drain([a.tenantId], `${tag}-wa-`, warmSince, 2 * ARRAY_SIZE);

    const metrics: Metrics = { flood: FLOOD, quietRatePerSecond: QUIET_RATE, aloneSeconds: SECONDS };
    const rows: Row[] = [];
    const verdicts: [string, boolean][] = [];

    step(`1. B alone, ${QUIET_RATE} events/s for ${SECONDS}s…`);
    const alone = await quietAlone(runs, [b], QUIET_RATE, `${tag}-b1-`);
    rows.push({ label: "B alone", quiet: alone });
    put(metrics, "alone", alone);

    step(`2. A floods ${FLOOD} events alone, then with B sending…`);
    const solo = await floodWith(runs, a, arrayFlood(a, `${tag}-s-`, FLOOD), [], 0, "");
    rows.push({ label: "A flood alone", flood: solo.flood });
    put(metrics, "solo", null, solo.flood);
    const both = await floodWith(runs, a, arrayFlood(a, `${tag}-f-`, FLOOD), [b], QUIET_RATE, `${tag}-b2-`);
    rows.push({ label: "B during A's flood", ...both });
    put(metrics, "flood", both.quiet, both.flood);
    const share = both.flood.runsPerSecond / solo.flood.runsPerSecond;
    metrics.floodShareOfSolo = round(share, 3);
    verdicts.push(
      [`B's p99 during the flood ≤ ${round(bound(alone))} ms`, both.quiet!.p99 <= bound(alone)],
      [`A during the flood ≥ 90 % of its solo runs/s (${round(share * 100)} %)`, share >= 0.9],
    );

    step(`3. The flood split over ${SPLIT} automations (${Math.ceil(FLOOD / SPLIT)} events)…`);
    const copies: string[] = [];
    for (let i = 1; i < SPLIT; i++) {
      copies.push(await publishFlow(a.client, `Bench: tag fulfilled orders, copy ${i}`, TAG_FULFILLED_FLOW));
    }
    const split = await floodWith(
      runs,
      a,
      arrayFlood(a, `${tag}-x-`, Math.ceil(FLOOD / SPLIT), SPLIT),
      [b],
      QUIET_RATE,
      `${tag}-b3-`,
    );
    for (const id of copies) await a.client.expect("POST", `/api/v1/automations/${id}/pause`, [200, 409]);
    rows.push({ label: `B during the flood split ${SPLIT} ways`, ...split });
    put(metrics, "split", split.quiet, split.flood);
    const splitBar = Math.max(1.1 * both.quiet!.p99, FLOOR_MS);
    verdicts.push([
      `B's p99 during the split flood ≤ ${round(splitBar)} ms (the unsplit's + 10 %, or 250)`,
      split.quiet!.p99 <= splitBar,
    ]);

    if (FANOUT > 0) {
      step(`4. A's schedule fans out over ${FANOUT} customers (Run now)…`);
      const scheduled = await publishFlow(a.client, "Bench: tag every customer", FANOUT_FLOW);
      const fan = await floodWith(runs, a, fanOut(a, scheduled), [b], QUIET_RATE, `${tag}-b4-`);
      rows.push({ label: `B during a ${FANOUT}-customer fan-out`, ...fan });
      put(metrics, "fanout", fan.quiet, fan.flood);
      verdicts.push([
        `B's p99 during the fan-out ≤ ${round(bound(alone))} ms`,
        fan.quiet!.p99 <= bound(alone),
      ]);
    }
    metrics.fanoutCustomers = FANOUT;

    if (manyCount > 0) {
      const perShop = MANY_RATE;
      const total = perShop * quietMany.length;
      step(
        `5. ${quietMany.length} quiet shops at ${perShop}/s each (${total}/s), alone then during A's flood…`,
      );
      const manyAlone = await quietAlone(runs, quietMany, total, `${tag}-m1-`);
      rows.push({ label: `${quietMany.length} quiet shops alone`, quiet: manyAlone });
      put(metrics, "manyAlone", manyAlone);
      const many = await floodWith(
        runs,
        a,
        arrayFlood(a, `${tag}-mf-`, FLOOD),
        quietMany,
        total,
        `${tag}-m2-`,
      );
      rows.push({ label: `${quietMany.length} quiet shops during A's flood`, ...many });
      put(metrics, "many", many.quiet, many.flood);
      metrics.manyShops = quietMany.length + 1;
      metrics.manyRatePerShop = perShop;
      const manyShare = many.flood.runsPerSecond / solo.flood.runsPerSecond;
      metrics.manyShareOfSolo = round(manyShare, 3);
      verdicts.push(
        [
          `The quiet shops' pooled p99 during the flood ≤ ${round(bound(manyAlone))} ms`,
          many.quiet!.p99 <= bound(manyAlone),
        ],
        [
          `A among ${quietMany.length + 1} shops ≥ 90 % of its solo runs/s (${round(manyShare * 100)} %)`,
          manyShare >= 0.9,
        ],
      );
    }

    printTable(rows);
    console.log("");
    for (const [words, ok] of verdicts) console.log(`  ${ok ? "PASS" : "FAIL"}  ${words}`);
    report("fairness", { ...metrics, meetsTarget: verdicts.every(([, ok]) => ok) }, { table: false });
  } finally {
    for (const shop of shops) {
      shop.client.close();
      for (const writer of shop.writers) writer.close();
    }
    await runs?.close();
    await app.stop();
  }
}
