import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { setQueueWeight } from "@/lib/auth/tenants";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { ingestEvents } from "@/lib/automations/engine/start/api";
import { busiestShops } from "@/lib/queue/backlog";
import type { WorkerHandle } from "@/worker/run";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { startTestWorker } from "@/tests/helpers/worker";

// Fair share between shops (lib/queue/fair-share.ts): one graphile-worker queue for every shop,
// served so that a shop with little queued is not held up by another shop's backlog.

const ORDERS = 100;
let worker: WorkerHandle | null = null;

afterAll(async () => {
  await worker?.stop();
});

//  order.fulfilled ──▶ add_tag(<tag>)
const tagOnFulfilled = (tag: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_fulfilled" },
      { id: "a", type: "auto.action.add_tag", params: { tag } },
    ],
    [["t", "a"]],
  );

async function shopWithOrders(): Promise<TestShop> {
  const shop = await createShop();
  for (let i = 0; i < ORDERS; i++)
    await upsertEntity(
      shop.tenant.id,
      "order",
      `o${i}`,
      { number: `#${i}`, status: "paid", total: 10, currency: "EUR" },
      "test",
    );
  return shop;
}

/** Records `count` order.fulfilled events for the shop, in arrays of 500, as a bulk import does. */
async function flood(shop: TestShop, count: number, prefix: string): Promise<void> {
  for (let from = 0; from < count; from += 500) {
    const events = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
      id: `${prefix}-${from + i}`,
      type: "order.fulfilled",
      domain: "order",
      entityId: `o${(from + i) % ORDERS}`,
    }));
    await ingestEvents(shop.tenant.id, events);
  }
}

const runsOf = async (shop: TestShop, where = sql`true`) => {
  const [row] = await getDb().execute<{ all: number; ended: number }>(sql`
    select count(*)::int as all, count(*) filter (where status in ('succeeded', 'failed', 'partial', 'cancelled'))::int as ended
    from automation_runs where tenant_id = ${shop.tenant.id} and ${where}`);
  return row!;
};

/** Sends one event for the quiet shop and returns how long its run took to end, in ms. */
async function oneEvent(shop: TestShop, id: string): Promise<number> {
  const started = performance.now();
  await ingestEvents(shop.tenant.id, [{ id, type: "order.fulfilled", domain: "order", entityId: "o1" }]);
  await until(
    () => runsOf(shop, sql`event_id = ${id}`),
    (r) => r.ended === 1,
    { timeoutMs: 60_000, intervalMs: 10, what: `the run of ${id} to end` },
  );
  return performance.now() - started;
}

/** Where the shop's waiting backlog job sits in the order graphile-worker will take jobs (0 = next). */
async function placeInLine(shop: TestShop): Promise<number> {
  const [row] = await getDb().execute<{ place: number }>(sql`
    with line as (
      select payload->>'tenantId' as tenant_id, row_number() over (order by priority, run_at) - 1 as place
      from graphile_worker._private_jobs where is_available and run_at <= now())
    select min(place)::int as place from line where tenant_id = ${shop.tenant.id}`);
  return row!.place;
}

let flooding: TestShop;
let quiet: TestShop;
let usualMs = 0;

beforeAll(async () => {
  [flooding, quiet] = await Promise.all([shopWithOrders(), shopWithOrders()]);
  await publishFlow(flooding.keys.editor, "Tag fulfilled", tagOnFulfilled("flood"));
  await publishFlow(quiet.keys.editor, "Tag fulfilled", tagOnFulfilled("quiet"));
  worker = await startTestWorker();
  // The quiet shop's usual latency, alone on the platform.
  const alone: number[] = [];
  for (let i = 0; i < 5; i++) alone.push(await oneEvent(quiet, `alone-${i}`));
  usualMs = Math.max(...alone);
}, 120_000);

test("a small shop's event is next in line and settles within its usual latency while another shop has 20,000 jobs queued; the flood settles exactly once", async () => {
  // A run of the flooding shop waiting, to come due in the middle of its own flood.
  const waiting = await publishFlow(
    flooding.keys.editor,
    "Wait then tag",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
        { id: "a", type: "auto.action.add_tag", params: { tag: "waited" } },
      ],
      [
        ["t", "w"],
        ["w", "a"],
      ],
    ),
  );
  await ingestEvents(flooding.tenant.id, [
    { id: "wait-1", type: "order.created", domain: "order", entityId: "o2" },
  ]);
  await until(
    () => getDb().execute(sql`select 1 from automation_run_waits where automation_id = ${waiting}`),
    (rows) => rows.length === 1,
    { timeoutMs: 10_000, what: "the run to wait" },
  );

  await worker?.stop();
  worker = null;
  await flood(flooding, 20_000, "flood");
  expect((await busiestShops(getDb(), 5))[0]).toMatchObject({
    tenantId: flooding.tenant.id,
    waiting: 20_000,
  });
  // Its time comes 3 s after the workers start on the flood (which takes them longer than that).
  await getDb().execute(sql`
    with w as (update automation_run_waits set resume_at = now() + interval '3 seconds'
               where automation_id = ${waiting} returning id)
    update graphile_worker._private_jobs j set run_at = now() + interval '3 seconds' from w where j.key = w.id::text`);
  worker = await startTestWorker();
  const floodStarted = performance.now();

  const quietMs = await oneEvent(quiet, "during-flood");
  const floodAtThatTime = await runsOf(flooding, sql`event_id like 'flood-%'`);
  // The collapse guard (10× its usual latency); without fair share it waited behind the flood.
  expect(quietMs).toBeLessThan(Math.max(10 * usualMs, 1_000));
  expect(floodAtThatTime.ended).toBeLessThan(20_000);

  await until(
    () => runsOf(flooding, sql`event_id like 'flood-%'`),
    (r) => r.ended === 20_000,
    { timeoutMs: 240_000, intervalMs: 100, what: "the flood to settle" },
  );
  const floodSeconds = (performance.now() - floodStarted) / 1000;
  const [outcome] = await getDb().execute<{ runs: number; succeeded: number; steps: number }>(sql`
    select count(distinct r.id)::int as runs,
           count(distinct r.id) filter (where r.status = 'succeeded')::int as succeeded,
           count(s.*)::int as steps
    from automation_runs r left join automation_run_steps s on s.run_id = r.id and s.node_id = 'a'
    where r.tenant_id = ${flooding.tenant.id} and r.event_id like 'flood-%'`);
  expect(outcome).toEqual({ runs: 20_000, succeeded: 20_000, steps: 20_000 });

  // The wait came due while its shop's own backlog was long: it was served at its time.
  const [resumed] = await getDb().execute<{ late_ms: number }>(sql`
    select (extract(epoch from (resolved_at - resume_at)) * 1000)::float8 as late_ms
    from automation_run_waits where automation_id = ${waiting}`);
  console.log(
    `Fair share: the quiet shop's event settled in ${quietMs.toFixed(0)} ms during the flood (alone: at most ${usualMs.toFixed(0)} ms); ` +
      `${floodAtThatTime.ended} of the flood's 20,000 runs had ended; the flood settled in ${floodSeconds.toFixed(1)} s; the flooding shop's wait resumed ${resumed!.late_ms.toFixed(0)} ms after its time.`,
  );
  expect(resumed!.late_ms).toBeLessThan(2_500);
}, 300_000);

test("splitting a flood over 50 automations changes nothing for the quiet shop: at most one job of the flood goes before its own", async () => {
  const split = await shopWithOrders();
  for (let i = 0; i < 50; i++) await publishFlow(split.keys.editor, `Copy ${i}`, tagOnFulfilled(`copy-${i}`));
  await worker?.stop();
  worker = null;
  await flood(split, 100, "split"); // 100 events × 50 automations: 5,000 runs
  expect((await runsOf(split)).all).toBe(5_000);
  await ingestEvents(quiet.tenant.id, [
    { id: "during-split", type: "order.fulfilled", domain: "order", entityId: "o1" },
  ]);
  // It joins the round at its head: tied with the flood's next job at most.
  expect(await placeInLine(quiet)).toBeLessThanOrEqual(1);
  worker = await startTestWorker();
  await until(
    () => runsOf(quiet, sql`event_id = 'during-split'`),
    (r) => r.ended === 1,
    { timeoutMs: 10 * usualMs + 5_000, intervalMs: 10, what: "the quiet shop's run" },
  );
  await until(
    () => runsOf(split),
    (r) => r.ended === 5_000,
    { timeoutMs: 120_000, intervalMs: 500, what: "the split flood to settle" },
  );
}, 240_000);

test("a shop with weight 2 is served about twice as often as a shop with weight 1", async () => {
  const [heavy, light] = await Promise.all([shopWithOrders(), shopWithOrders()]);
  await setQueueWeight(heavy.tenant.slug, 2);
  await publishFlow(heavy.keys.editor, "Tag", tagOnFulfilled("heavy"));
  await publishFlow(light.keys.editor, "Tag", tagOnFulfilled("light"));
  await worker?.stop();
  worker = null;
  await flood(heavy, 3_000, "heavy");
  await flood(light, 3_000, "light");
  // The order graphile-worker takes them in: of the first 3,000, two thirds are the heavy shop's.
  const [firstThird] = await getDb().execute<{ heavy: number }>(sql`
    select count(*) filter (where payload->>'tenantId' = ${heavy.tenant.id})::int as heavy
    from (select payload from graphile_worker._private_jobs where is_available and run_at <= now()
          order by priority, run_at limit 3000) j`);
  expect(firstThird!.heavy).toBeGreaterThan(1_800);
  expect(firstThird!.heavy).toBeLessThan(2_200);
  // And the worker serves them so: when half of the 6,000 have ended, the heavy shop has about twice as many.
  worker = await startTestWorker();
  const ended = await until(
    async () => [(await runsOf(heavy)).ended, (await runsOf(light)).ended] as const,
    ([h, l]) => h + l >= 3_000,
    { timeoutMs: 120_000, intervalMs: 50, what: "half the runs to end" },
  );
  expect(ended[0] / Math.max(1, ended[1])).toBeGreaterThan(1.4);
  expect(ended[0] / Math.max(1, ended[1])).toBeLessThan(3);
}, 240_000);
