import { and, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { POST } from "@/app/api/v1/events/route";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, createShop, type ErrorReply, type TestShop } from "./fixtures";

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
