import http from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runLegs } from "@/lib/automations/engine/pipeline";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, automationRuns, automationRunSteps, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import type { WorkerHandle } from "@/worker/run";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { startTestWorker } from "@/tests/helpers/worker";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

let shop: TestShop;
let worker: WorkerHandle | null = null;

beforeAll(async () => {
  shop = await createShop();
});
afterAll(async () => {
  await worker?.stop();
});

const order = (n: number) => ({ number: `#${n}`, status: "pending", total: n, currency: "EUR" });

async function createOrders(prefix: string, count: number) {
  for (let i = 0; i < count; i++)
    await upsertEntity(shop.tenant.id, "order", `${prefix}${i}`, order(i), "test");
}

//  automation A:  order_created ──▶ add_tag(a)
//  automation B:  order_created ──▶ total >= 0 ──true──▶ add_tag(b) ──▶ remove_tag(a)
// Both run for every order, in the same batches, so one record is touched by two runs at once.
test("runs started together execute in batches, each action exactly once, in plan order", async () => {
  const a = await publishFlow(
    shop.keys.editor,
    "A",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "a" } },
      ],
      [["t", "tag"]],
    ),
  );
  const b = await publishFlow(
    shop.keys.editor,
    "B",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "c", type: "auto.condition.field", params: { path: "total", operator: "gte", value: 0 } },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "b" } },
        { id: "untag", type: "auto.action.remove_tag", params: { tag: "never-there" } },
      ],
      [
        ["t", "c"],
        ["c", "tag", "true"],
        ["tag", "untag"],
      ],
    ),
  );
  await createOrders("batch-", 60);
  worker = await startTestWorker();
  const runsA = await settledRuns(a, 60);
  const runsB = await settledRuns(b, 60);
  expect(new Set([...runsA, ...runsB].map((r) => r.status))).toEqual(new Set(["succeeded"]));

  const tagged = await getDb().execute<{ id: string; tags: string[] }>(
    sql`select id, tags from entities where id like 'batch-%' order by id`,
  );
  expect(tagged).toHaveLength(60);
  for (const row of tagged) expect([...row.tags].sort()).toEqual(["a", "b"]);

  const deliveries = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from action_deliveries d join automation_runs r on r.id = d.run_id
        where r.automation_id in (${a}, ${b})`,
  );
  expect(deliveries[0]!.n).toBe(60 + 120);

  // Steps of a batched run are listed in plan order, with the remove_tag reported as no change.
  const [oneRun] = runsB;
  const steps = await getDb()
    .select({ nodeId: automationRunSteps.nodeId, output: automationRunSteps.output })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, oneRun!.id))
    .orderBy(automationRunSteps.position);
  expect(steps).toEqual([
    { nodeId: "c", output: { result: true } },
    { nodeId: "tag", output: { tag: "b", changed: true } },
    { nodeId: "untag", output: { tag: "never-there", changed: false } },
  ]);
});

//  order_paid ──▶ add_tag({event.payload.label}) ──▶ add_tag(paid)
//  order_paid ─┬─▶ add_tag({event.payload.label})   (empty: fails)
//              └─▶ add_tag(paid)
test("an action that fails inside a batch fails only its own step; the run is partial", async () => {
  const id = await publishFlow(
    shop.keys.editor,
    "Paid",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        { id: "label", type: "auto.action.add_tag", params: { tag: "{event.payload.label}" } },
        { id: "paid", type: "auto.action.add_tag", params: { tag: "paid" } },
      ],
      [
        ["t", "label"],
        ["t", "paid"],
      ],
    ),
  );
  await upsertEntity(shop.tenant.id, "order", "p-1", order(1), "test");
  await upsertEntity(shop.tenant.id, "order", "p-1", { ...order(1), status: "paid" }, "test");
  const [run] = await settledRuns(id);
  expect(run).toMatchObject({ status: "partial", error: "1 of 2 actions failed." });
  const steps = await getDb()
    .select({
      nodeId: automationRunSteps.nodeId,
      status: automationRunSteps.status,
      error: automationRunSteps.error,
    })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, run!.id))
    .orderBy(automationRunSteps.position);
  expect(steps).toEqual([
    { nodeId: "label", status: "failed", error: "The tag came out empty after filling in its placeholders." },
    { nodeId: "paid", status: "success", error: null },
  ]);
  const [entity] = await getDb().select({ tags: entities.tags }).from(entities).where(eq(entities.id, "p-1"));
  expect(entity!.tags).toContain("paid");
});

test("one batch takes every kind of leg: an HTTP call, an earlier attempt, a missing record, a plain one", async () => {
  await worker?.stop();
  worker = null;
  const server = http.createServer((_req, res) => res.end("ok"));
  const url = `${await listenLocally(server)}/`;
  const hook = await publishFlow(
    shop.keys.editor,
    "Fulfilled",
    flow(
      [
        { id: "t", type: "auto.trigger.order_fulfilled" },
        { id: "call", type: "auto.action.http_request", params: { url } },
      ],
      [["t", "call"]],
    ),
  );
  const tagger = await publishFlow(
    shop.keys.editor,
    "Cancelled",
    flow(
      [
        { id: "t", type: "auto.trigger.order_cancelled" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "x" } },
      ],
      [["t", "tag"]],
    ),
  );
  await upsertEntity(shop.tenant.id, "order", "h-1", order(1), "test");
  await upsertEntity(shop.tenant.id, "order", "h-1", { ...order(1), status: "fulfilled" }, "test");
  for (const id of ["c-1", "c-2", "c-3"]) {
    await upsertEntity(shop.tenant.id, "order", id, order(1), "test");
    await upsertEntity(shop.tenant.id, "order", id, { ...order(1), status: "cancelled" }, "test");
  }
  const runs = await getDb()
    .select({
      id: automationRuns.id,
      automationId: automationRuns.automationId,
      entityId: automationRuns.entityId,
    })
    .from(automationRuns)
    .where(sql`${automationRuns.automationId} in (${hook}, ${tagger})`);
  const byEntity = Object.fromEntries(runs.map((r) => [r.entityId, r.id]));
  // c-2 had an earlier attempt (it is 'running' already); c-3's record disappeared.
  await getDb()
    .update(automationRuns)
    .set({ status: "running" })
    .where(eq(automationRuns.id, byEntity["c-2"]!));
  await getDb().delete(entities).where(eq(entities.id, "c-3"));

  const outcomes = await runLegs(runs.map((r) => ({ kind: "start" as const, runId: r.id })));
  expect(new Set(outcomes.values())).toEqual(new Set(["ran", "stopped"]));
  const statusOf = async (entityId: string) =>
    (await getDb().select().from(automationRuns).where(eq(automationRuns.id, byEntity[entityId]!)))[0]!;
  expect((await statusOf("c-1")).status).toBe("succeeded");
  expect((await statusOf("c-2")).status).toBe("succeeded");
  expect((await statusOf("h-1")).status).toBe("succeeded");
  expect(await statusOf("c-3")).toMatchObject({
    status: "failed",
    error: "The order 'c-3' no longer exists.",
  });
  const sent = await getDb()
    .select()
    .from(actionDeliveries)
    .where(eq(actionDeliveries.runId, byEntity["h-1"]!));
  expect(sent).toMatchObject([{ status: "delivered", attempts: 1 }]);
  const [c2] = await getDb().select({ tags: entities.tags }).from(entities).where(eq(entities.id, "c-2"));
  expect(c2!.tags).toEqual(["x"]);
  await closeServer(server);
});
