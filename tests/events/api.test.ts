import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST } from "@/app/api/v1/events/route";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db/client";
import { automationRuns, automations, events } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

type Reply = ErrorReply & { id: string; type: string; duplicate: boolean };

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await upsertEntity(
    shop.tenant.id,
    "order",
    "o-1",
    { number: "1", status: "paid", total: 5, currency: "EUR" },
    "test",
  );
});

const post = (body: unknown, key = shop.keys.editor) => call<Reply>(POST, { method: "POST", key, body });

async function rowsWithId(id: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.tenantId, shop.tenant.id), eq(events.id, id)));
}

test("an event about an existing order is recorded once per id", async () => {
  const body = {
    id: "ext-1",
    type: "order.fulfilled",
    domain: "order",
    entityId: "o-1",
    payload: { by: "warehouse" },
  };
  const first = await post(body);
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({ id: "ext-1", type: "order.fulfilled", duplicate: false });
  const again = await post(body);
  expect(again.status).toBe(200);
  expect(again.body.duplicate).toBe(true);
  expect(await rowsWithId("ext-1")).toHaveLength(1);
});

test("webhook events need no entity; ids are generated when absent", async () => {
  const res = await post({ type: "webhook.received", domain: "webhook", payload: { hello: "world" } });
  expect(res.status).toBe(201);
  expect(res.body.id).toMatch(/^evt_/);
});

test("invalid events are refused with the field named, and nothing is stored", async () => {
  const wrongType = await post({ id: "bad-1", type: "Order Paid", domain: "order", entityId: "o-1" });
  expect(wrongType.status).toBe(422);
  expect(wrongType.body.error.message).toMatch(/type/);
  const mismatch = await post({ id: "bad-2", type: "cart.abandoned", domain: "order", entityId: "o-1" });
  expect(mismatch.status).toBe(422);
  expect(mismatch.body.error.message).toMatch(/must start with 'order\.'/);
  const noEntity = await post({ id: "bad-3", type: "order.paid", domain: "order" });
  expect(noEntity.status).toBe(422);
  expect(noEntity.body.error.message).toMatch(/entityId/);
  expect([
    ...(await rowsWithId("bad-1")),
    ...(await rowsWithId("bad-2")),
    ...(await rowsWithId("bad-3")),
  ]).toHaveLength(0);
});

test("an event about a record that does not exist, or belongs to another shop, is a 404", async () => {
  const missing = await post({ type: "order.paid", domain: "order", entityId: "nope" });
  expect(missing.status).toBe(404);
  expect(missing.body.error.message).toBe("The order 'nope' was not found.");
  const foreign = await post({ type: "order.paid", domain: "order", entityId: "o-1" }, other.keys.admin);
  expect(foreign.status).toBe(404);
});

test("a viewer cannot send events", async () => {
  const res = await post({ type: "webhook.received", domain: "webhook" }, shop.keys.viewer);
  expect(res.status).toBe(403);
});

describe("an array of events", () => {
  type BatchReply = ErrorReply & { items: { id: string; duplicate: boolean }[] };
  const postMany = (body: unknown, key = shop.keys.editor) =>
    call<BatchReply>(POST, { method: "POST", key, body });
  const order = (id: string, entityId = "o-1") => ({ id, type: "order.paid", domain: "order", entityId });

  async function rowsWithIds(tenantId: string, ids: string[]) {
    return getDb()
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.tenantId, tenantId), inArray(events.id, ids)));
  }

  test("records every event once, reporting repeats in input order", async () => {
    const first = await postMany([
      order("b-1"),
      { type: "webhook.received", domain: "webhook" },
      order("b-2"),
    ]);
    expect(first.status).toBe(201);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.items[0]).toEqual({ id: "b-1", duplicate: false });
    expect(first.body.items[1]!.id).toMatch(/^evt_/);
    expect(first.body.items[2]).toEqual({ id: "b-2", duplicate: false });

    const again = await postMany([order("b-3"), order("b-2"), order("b-1")]);
    expect(again.status).toBe(201);
    expect(again.body.items).toEqual([
      { id: "b-3", duplicate: false },
      { id: "b-2", duplicate: true },
      { id: "b-1", duplicate: true },
    ]);
    const repeat = await postMany([order("b-1")]);
    expect(repeat.status).toBe(200);
    expect(repeat.body.items).toEqual([{ id: "b-1", duplicate: true }]);
    expect(await rowsWithIds(shop.tenant.id, ["b-1", "b-2", "b-3"])).toHaveLength(3);
  });

  test("one bad event refuses the whole array, every problem named by index, nothing written", async () => {
    const res = await postMany([
      order("r-0"),
      { id: "r-1", type: "order.Paid", domain: "order", entityId: "o-1" },
      order("r-2"),
      order("r-3", "nope"),
      order("r-0"),
      { id: "r-5", type: "order.paid", domain: "order", entityId: "o-1", colour: "red" },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid");
    expect(res.body.error.message).toMatch(/^4 of the 6 events are invalid/);
    expect(res.body.error.message).toContain("event 3: The order 'nope' was not found; event 4: id 'r-0'");
    expect(res.body.error.issues?.map((i) => i.path)).toEqual(["1.type", "3.entityId", "4.id", "5"]);
    expect(res.body.error.issues?.[0]?.message).toMatch(/^event 1: type must look like 'order\.paid'/);
    expect(res.body.error.issues?.[2]?.message).toMatch(/'r-0' is also the id of event 0/);
    expect(await rowsWithIds(shop.tenant.id, ["r-0", "r-1", "r-2", "r-3", "r-5"])).toHaveLength(0);
  });

  test("an empty array and one over 1,000 events are refused", async () => {
    const empty = await postMany([]);
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toMatch(/empty; send 1 to 1000 events/);
    const many = Array.from({ length: 1001 }, (_, i) => order(`m-${i}`));
    const tooMany = await postMany(many);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.message).toMatch(/at most 1,000 events; this one has 1,001/);
    expect(await rowsWithIds(shop.tenant.id, ["m-0", "m-1000"])).toHaveLength(0);
  });

  test("1,000 events fit in one request (over 1 MB), and a body over 5 MB is refused", async () => {
    const padding = "x".repeat(1_200);
    const full = Array.from({ length: 1000 }, (_, i) => ({ ...order(`k-${i}`), payload: { padding } }));
    const res = await postMany(full);
    expect(res.status).toBe(201);
    expect(res.body.items).toHaveLength(1000);
    expect(res.body.items.every((item, i) => item.id === `k-${i}` && !item.duplicate)).toBe(true);
    const huge = await postMany([{ ...order("huge"), payload: { padding: "x".repeat(5_100_000) } }]);
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/larger than 5 MB/);
    const single = await post({ ...order("big-single"), payload: { padding: "x".repeat(1_100_000) } });
    expect(single.status).toBe(413);
    expect(single.body.error.message).toBe("The request body is larger than 1 MB.");
  });

  test("another shop's record in an array refuses the array, and nothing is written in either shop", async () => {
    await upsertEntity(
      other.tenant.id,
      "order",
      "theirs",
      { number: "9", status: "paid", total: 5, currency: "EUR" },
      "test",
    );
    const res = await postMany([order("w-1"), order("w-2", "theirs")]);
    expect(res.status).toBe(422);
    expect(res.body.error.issues).toEqual([
      { path: "1.entityId", message: "event 1: The order 'theirs' was not found." },
    ]);
    expect(await rowsWithIds(shop.tenant.id, ["w-1", "w-2"])).toHaveLength(0);
    expect(await rowsWithIds(other.tenant.id, ["w-1", "w-2"])).toHaveLength(0);
  });

  test("a viewer cannot send an array", async () => {
    const res = await postMany([order("v-1")], shop.keys.viewer);
    expect(res.status).toBe(403);
    expect(await rowsWithIds(shop.tenant.id, ["v-1"])).toHaveLength(0);
  });
});

test("a revoked API key stops working at once, although it was just used", async () => {
  const { key, apiKey } = await createApiKey(shop.tenant.id, { name: "short-lived", role: "editor" });
  expect((await post({ type: "webhook.received", domain: "webhook" }, key)).status).toBe(201);
  await revokeApiKey(shop.tenant.id, apiKey.id);
  const refused = await post({ type: "webhook.received", domain: "webhook" }, key);
  expect(refused.status).toBe(401);
});

describe("events start the runs of the automations active at that very moment", () => {
  const tagPaid = flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      { id: "a", type: "auto.action.add_tag", params: { tag: "paid" } },
    ],
    [["t", "a"]],
  );
  const paid = (id: string) => ({ id, type: "order.paid", domain: "order", entityId: "o-9" });

  async function runsOf(eventId: string) {
    return getDb()
      .select({ automationId: automationRuns.automationId, version: automationRuns.automationVersion })
      .from(automationRuns)
      .where(and(eq(automationRuns.tenantId, third.tenant.id), eq(automationRuns.eventId, eventId)));
  }

  let third: TestShop;
  beforeAll(async () => {
    third = await createShop();
    await upsertEntity(
      third.tenant.id,
      "order",
      "o-9",
      { number: "9", status: "pending", total: 9, currency: "EUR" },
      "test",
    );
  });

  test("publish then an event at once starts a run; pause then an event starts none", async () => {
    const send = (body: unknown) => call<Reply>(POST, { method: "POST", key: third.keys.editor, body });
    // Remember "nobody listens to order.paid" first, so the publish has something to outdate.
    expect((await send(paid("c-0"))).status).toBe(201);
    expect(await runsOf("c-0")).toHaveLength(0);

    const automationId = await publishFlow(third.keys.editor, "Tag paid orders", tagPaid);
    expect((await send(paid("c-1"))).status).toBe(201);
    expect(await runsOf("c-1")).toEqual([{ automationId, version: 1 }]);
    // The run's first-leg job was added with it.
    const jobs = await getDb().execute<{ n: number }>(sql`
      select count(*)::int as n from graphile_worker.jobs j join automation_runs r on j.key = 'run:' || r.id
      where r.event_id = 'c-1' and j.task_identifier = 'automation_execute'`);
    expect(jobs[0]!.n).toBe(1);
    expect((await send([paid("c-2"), paid("c-3"), paid("c-1")])).status).toBe(201);
    expect([...(await runsOf("c-2")), ...(await runsOf("c-3")), ...(await runsOf("c-1"))]).toHaveLength(3);

    const paused = await call(pauseRoute, {
      method: "POST",
      key: third.keys.editor,
      params: { id: automationId },
    });
    expect(paused.status).toBe(200);
    expect((await send(paid("c-4"))).status).toBe(201);
    expect(await runsOf("c-4")).toHaveLength(0);

    // Switched back on by another process (a direct write, as a second server would make it).
    await getDb().update(automations).set({ status: "active" }).where(eq(automations.id, automationId));
    expect((await send(paid("c-5"))).status).toBe(201);
    expect(await runsOf("c-5")).toEqual([{ automationId, version: 1 }]);

    // A new version published elsewhere: the next event runs on it.
    await getDb().update(automations).set({ version: 2 }).where(eq(automations.id, automationId));
    expect((await send([paid("c-6")])).status).toBe(201);
    expect(await runsOf("c-6")).toEqual([{ automationId, version: 2 }]);
  });
});

test("single events sent together each get their own answer, as if sent one by one", async () => {
  const one = (id: string, entityId = "o-1") => ({ id, type: "order.fulfilled", domain: "order", entityId });
  const bodies = [
    ...Array.from({ length: 20 }, (_, i) => one(`t-${i}`)),
    one("t-same"),
    one("t-same"),
    one("t-missing", "nope"),
    one("t-same"),
  ];
  const replies = await Promise.all(bodies.map((body) => post(body)));
  expect(replies.slice(0, 20).map((r) => r.status)).toEqual(Array(20).fill(201));
  const same = replies.filter((_, i) => bodies[i]!.id === "t-same");
  expect(same.map((r) => r.body.duplicate).sort()).toEqual([false, true, true]);
  expect(same.map((r) => r.status).sort()).toEqual([200, 200, 201]);
  expect(replies[22]!.status).toBe(404);
  expect(replies[22]!.body.error.message).toBe("The order 'nope' was not found.");
  expect(await rowsWithId("t-same")).toHaveLength(1);
  expect(await rowsWithId("t-missing")).toHaveLength(0);
  expect(await rowsWithId("t-19")).toHaveLength(1);
});
