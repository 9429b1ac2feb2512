import http from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { recordEvents } from "@/lib/automations/engine/start/events";
import { enqueueJobs } from "@/lib/jobs";
import { spawnWorker, killWorkers } from "@/tests/helpers/worker-process";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

const RUNS = 2_000;
const received: string[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // Slow enough that requests are in flight when the worker is killed.
    setTimeout(() => {
      received.push(String(req.headers["idempotency-key"]));
      res.end("ok");
    }, 15);
  });
  url = `${await listenLocally(server)}/hook`;
});

afterAll(async () => {
  killWorkers();
  await closeServer(server);
});

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(query);
  return row!.n;
}

//  order_created ──▶ add_tag(crash) ──▶ http_request(local server)
test("a worker killed with SIGKILL mid-flight loses nothing and repeats nothing but in-flight requests, with the same key", async () => {
  const shop = await createShop();
  const automationId = await publishFlow(
    shop.keys.editor,
    "Crash",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "crash" } },
        { id: "call", type: "auto.action.http_request", params: { url, body: '{"order":"{entity.id}"}' } },
      ],
      [
        ["t", "tag"],
        ["tag", "call"],
      ],
    ),
  );
  await getDb()
    .insert(entities)
    .values(
      Array.from({ length: RUNS }, (_, i) => ({
        tenantId: shop.tenant.id,
        domain: "order",
        id: `k-${i}`,
        data: { number: `#${i}`, status: "pending", total: 1, currency: "EUR", lineItems: [] },
        status: "pending",
        updatedAt: new Date(),
      })),
    );
  await getDb().transaction((tx) =>
    recordEvents(
      tx,
      shop.tenant.id,
      Array.from({ length: RUNS }, (_, i) => ({
        type: "order.created",
        domain: "order",
        entityId: `k-${i}`,
      })),
    ),
  );

  const first = spawnWorker();
  await expect.poll(() => received.length, { timeout: 60_000, interval: 20 }).toBeGreaterThan(300);
  first.kill("SIGKILL");
  const atKill = received.length;
  expect(atKill).toBeLessThan(RUNS);

  spawnWorker();
  // Release the dead worker's locked jobs now rather than at the next minute's cron tick.
  await new Promise((r) => setTimeout(r, 4_000));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);

  await expect
    .poll(
      () =>
        count(sql`select count(*)::int as n from automation_runs
                    where automation_id = ${automationId} and status in ('succeeded', 'partial', 'failed', 'cancelled')`),
      { timeout: 180_000, interval: 250 },
    )
    .toBe(RUNS);

  expect(
    await count(
      sql`select count(*)::int as n from automation_runs where automation_id = ${automationId} and status = 'succeeded'`,
    ),
  ).toBe(RUNS);
  // Every tag applied exactly once: one delivery per run, and each order carries the tag once.
  expect(
    await count(
      sql`select count(*)::int as n from action_deliveries where node_id = 'tag' and status = 'delivered'`,
    ),
  ).toBe(RUNS);
  expect(
    await count(
      sql`select count(*)::int as n from entities where id like 'k-%' and array_length(array_positions(tags, 'crash'), 1) = 1`,
    ),
  ).toBe(RUNS);

  // One request per run for each distinct key; a repeat only for requests in flight at the kill.
  const perKey = new Map<string, number>();
  for (const key of received) perKey.set(key, (perKey.get(key) ?? 0) + 1);
  expect(perKey.size).toBe(RUNS);
  const repeated = [...perKey].filter(([, n]) => n > 1).map(([key]) => key);
  expect(repeated.length).toBeLessThanOrEqual(40 * 4); // at most what one worker can have in flight
  console.info(
    `crash: ${atKill} requests before the kill, ${received.length} in all, ${repeated.length} re-sent`,
  );
  for (const key of perKey.keys()) expect(key).toMatch(/^[0-9a-f-]{36}:call:1$/);
  if (repeated.length > 0) {
    const said = await count(sql`
        select count(*)::int as n from automation_run_steps s
        where s.node_id = 'call' and s.reason = 'Re-sent after an interruption, with the same Idempotency-Key.'
          and (s.run_id::text || ':call:1') in ${repeated}`);
    expect(said).toBe(repeated.length);
  }
}, 240_000);
