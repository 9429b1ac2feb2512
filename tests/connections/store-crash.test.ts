import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { POST as createConnectionRoute } from "@/app/api/v1/connections/route";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { startFakeStore, type FakeStore } from "@/tests/helpers/fake-store";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop } from "@/tests/helpers/shop";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";

/*
 * Issue 52: a worker killed with SIGKILL in the middle of a store step — Shopify has applied the
 * call, the worker never heard back — and another worker takes the run over. It sends again with
 * the same dedupe key (`<run>:<step>:1`), reading the store first:
 *
 *   order_paid ──▶ store_add_tags(vip) ──▶ store_add_order_note("Checked")
 *
 * tagsAdd is applied on the first call and left unanswered; the new worker's tagsAdd is
 * idempotent, so the order holds 'vip' once. Then orderUpdate is applied and left unanswered;
 * the next worker reads the order's `tillflow.writes` metafield, finds its key, and writes no
 * second line. A local server answers as Shopify's GraphQL Admin API documents
 * (tests/helpers/fake-store.ts; the pages it follows are cited in tests/connections/store-write.test.ts):
 * https://shopify.dev/docs/api/admin-graphql/latest/mutations/tagsAdd,
 * https://shopify.dev/docs/api/admin-graphql/latest/mutations/orderUpdate.
 */

const TOKEN = `shpat_${crypto.randomBytes(16).toString("hex")}`;
let fake: FakeStore;

beforeAll(async () => {
  fake = await startFakeStore({ token: TOKEN });
});
afterAll(async () => {
  killWorkers();
  await fake.close();
});

/** Kills `worker` once the fake holds an unanswered call, and starts another that takes over. */
async function killMidCall(worker: ReturnType<typeof spawnWorker>, hanging: number) {
  await expect.poll(() => fake.hanging.length, { timeout: 90_000, interval: 50 }).toBe(hanging);
  worker.kill("SIGKILL");
  const next = spawnWorker({ STORE_API_BASE_URL: fake.url });
  // Release the dead worker's locked jobs now rather than at the next minute's cron tick.
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);
  return next;
}

test("tags and a note are written once across workers killed mid-call", async () => {
  const shop = await createShop();
  const made = await call<{ writes: { credentialId: string } }>(createConnectionRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: {
      platform: "shopify",
      name: "crash",
      secret: crypto.randomBytes(16).toString("hex"),
      shopDomain: "crash-test.myshopify.com",
      adminToken: TOKEN,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const credentialId = made.body.writes.credentialId;
  fake.orders.set("4001", { tags: [], note: "", metafields: new Map(), fulfillmentOrders: [] });
  const id = await publishFlow(
    shop.keys.editor,
    "Crash in Shopify",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "tags",
          type: "auto.action.store_add_tags",
          params: { credentialId, platform: "shopify", tags: "vip" },
        },
        {
          id: "note",
          type: "auto.action.store_add_order_note",
          params: { credentialId, platform: "shopify", note: "Checked" },
        },
      ],
      [
        ["t", "tags"],
        ["tags", "note"],
      ],
    ),
  );
  fake.hang.add("tagsAdd");
  fake.hang.add("orderUpdate");
  const order = { number: "#4001", status: "pending", total: 700, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", "4001", order, "test");
  await upsertEntity(shop.tenant.id, "order", "4001", { ...order, status: "paid" }, "test");

  const first = spawnWorker({ STORE_API_BASE_URL: fake.url });
  const second = await killMidCall(first, 1);
  await killMidCall(second, 2);

  const [run] = await settledRuns(id, 1, 30_000);
  expect(run!.status).toBe("succeeded");
  const stored = fake.orders.get("4001")!;
  expect(stored.tags).toEqual(["vip"]);
  expect(stored.note).toBe("Checked");
  // tagsAdd went twice (idempotent in Shopify); orderUpdate once: the re-send found its key.
  expect(fake.shopify.filter((r) => r.field === "tagsAdd")).toHaveLength(2);
  expect(fake.shopify.filter((r) => r.field === "orderUpdate")).toHaveLength(1);
  expect(JSON.parse(stored.metafields.get("tillflow.writes")!)).toEqual([`${run!.id}:note:1`]);
  const steps = await getDb().execute<{
    node_id: string;
    status: string;
    reason: string | null;
    output: unknown;
  }>(
    sql`select node_id, status, reason, output from automation_run_steps where run_id = ${run!.id} order by position`,
  );
  expect(steps.map((s) => [s.node_id, s.status])).toEqual([
    ["tags", "success"],
    ["note", "success"],
  ]);
  for (const step of steps) expect(step.reason).toContain("Sent again after an interruption");
  expect(steps[1]!.output).toMatchObject({ alreadyWritten: true });
  const [deliveries] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from action_deliveries where run_id = ${run!.id} and status = 'delivered'`,
  );
  expect(deliveries!.n).toBe(2);
}, 240_000);
