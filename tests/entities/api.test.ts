import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { DELETE, GET, PATCH, PUT } from "@/app/api/v1/entities/[domain]/[id]/route";
import { revokeApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db/client";
import { entities, events } from "@/lib/db/schema";
import { listEntities } from "@/lib/entities/list";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

interface EntityReply {
  id: string;
  domain: string;
  number: string;
  total: number;
  status: string;
  tags: string[];
  notes: { body: string; author: string }[];
}
type Reply = EntityReply & ErrorReply;

const order = { number: "#1001", status: "pending", total: 42.5, currency: "EUR", email: "ann@example.com" };

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop("main-shop");
  other = await createShop("other-shop");
});

async function eventsOf(tenantId: string, entityId: string) {
  return getDb()
    .select({ type: events.type, payload: events.payload })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.entityId, entityId)))
    .orderBy(events.createdAt);
}

function put(id: string, body: unknown, key = shop.keys.editor, domain = "order") {
  return call<Reply>(PUT, { method: "PUT", key, body, params: { domain, id } });
}

describe("PUT/GET/DELETE /api/v1/entities/:domain/:id", () => {
  test("creates an order with tags and notes, and GET returns them", async () => {
    const created = await put("o-1", {
      ...order,
      tags: ["vip", "vip", "gift"],
      notes: ["Leave at the door"],
    });
    expect(created.status).toBe(201);
    const got = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "o-1" } });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: "o-1",
      domain: "order",
      number: "#1001",
      total: 42.5,
      tags: ["vip", "gift"],
    });
    expect(got.body.notes).toHaveLength(1);
    expect(got.body.notes[0]).toMatchObject({
      body: "Leave at the door",
      author: expect.stringMatching(/^API key tf_/),
    });
  });

  test("a repeated PUT replaces fields, keeps tags unless given, and does not duplicate notes", async () => {
    await put("o-2", { ...order, tags: ["vip"], notes: ["Fragile"] });
    const again = await put("o-2", { ...order, total: 50, notes: ["Fragile", "Call first"] });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ total: 50, tags: ["vip"] });
    expect(again.body.notes.map((n) => n.body)).toEqual(["Fragile", "Call first"]);
  });

  test("an invalid payload gets a 422 naming the field, and stores nothing", async () => {
    const res = await put("o-bad", { ...order, total: "lots", currency: "euro" });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid");
    expect(res.body.error.message).toMatch(/total/);
    expect(res.body.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(["total", "currency"]));
    const rows = await getDb().select().from(entities).where(eq(entities.id, "o-bad"));
    expect(rows).toHaveLength(0);
    expect(await eventsOf(shop.tenant.id, "o-bad")).toHaveLength(0);
  });

  test("unknown fields, unknown domains, bad ids and malformed JSON are refused clearly", async () => {
    const extra = await put("o-x", { ...order, colour: "red" });
    expect(extra.status).toBe(422);
    expect(extra.body.error.message).toMatch(/colour/);
    const domain = await put("x-1", order, shop.keys.editor, "parcel");
    expect(domain.status).toBe(404);
    expect(domain.body.error.message).toMatch(/no 'parcel' domain/);
    const badId = await put("has space", order);
    expect(badId.status).toBe(422);
    const malformed = await call<Reply>(PUT, {
      method: "PUT",
      key: shop.keys.editor,
      rawBody: "{ not json",
      params: { domain: "order", id: "o-y" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toBe("The request body is not valid JSON.");
  });

  test("creating emits order.created; a status change writes exactly one status_changed event", async () => {
    await put("o-3", order);
    expect((await eventsOf(shop.tenant.id, "o-3")).map((e) => e.type)).toEqual(["order.created"]);

    await put("o-3", { ...order, status: "paid" });
    const after = await eventsOf(shop.tenant.id, "o-3");
    const changed = after.filter((e) => e.type === "order.status_changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]!.payload).toEqual({ from: "pending", to: "paid" });
    expect(after.map((e) => e.type)).toContain("order.paid");

    // Same status again: no new event.
    await put("o-3", { ...order, status: "paid", total: 99 });
    expect(await eventsOf(shop.tenant.id, "o-3")).toHaveLength(after.length);
  });

  test("DELETE removes the record; GET is then 404 with the domain in the message", async () => {
    await put("o-4", order);
    const del = await call<Reply>(DELETE, {
      method: "DELETE",
      key: shop.keys.editor,
      params: { domain: "order", id: "o-4" },
    });
    expect(del.status).toBe(204);
    const got = await call<Reply>(GET, { key: shop.keys.admin, params: { domain: "order", id: "o-4" } });
    expect(got.status).toBe(404);
    expect(got.body.error.message).toBe("The order 'o-4' was not found.");
  });

  test("every domain accepts its fields", async () => {
    const samples: Record<string, unknown> = {
      cart: { status: "open", total: 10, items: [{ sku: "A", quantity: 1, price: 10 }] },
      customer: { email: "c@example.com", name: "C", acceptsMarketing: true },
      product: { title: "Mug", inventory: 4 },
      refund: { orderId: "o-1", amount: 5, reason: "Broken" },
      shipment: { orderId: "o-1", status: "in_transit", carrier: "DHL" },
      invoice: { customerId: "c-1", amount: 100, status: "sent", dueAt: "2026-12-31T00:00:00Z" },
    };
    for (const [domain, body] of Object.entries(samples)) {
      const res = await put(`${domain}-1`, body, shop.keys.editor, domain);
      expect(res.status, `${domain}: ${JSON.stringify(res.body)}`).toBe(201);
    }
  });
});

describe("PATCH /api/v1/entities/:domain/:id", () => {
  const patch = (id: string, body: unknown, key = shop.keys.editor, domain = "order") =>
    call<Reply & { email?: string }>(PATCH, { method: "PATCH", key, body, params: { domain, id } });

  test("merges the given fields and keeps the rest, tags included", async () => {
    await put("p-1", { ...order, tags: ["vip"] });
    const res = await patch("p-1", { total: 60, notes: ["Called the customer"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: "p-1",
      number: "#1001",
      total: 60,
      status: "pending",
      tags: ["vip"],
    });
    expect(res.body.email).toBe("ann@example.com");
    expect(res.body.notes.map((n) => n.body)).toEqual(["Called the customer"]);
    const cleared = await patch("p-1", { email: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.email).toBeUndefined();
    expect(cleared.body.total).toBe(60);
  });

  test("a status change emits the same events a PUT does, and only once", async () => {
    await put("p-2", order);
    const res = await patch("p-2", { status: "paid" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("paid");
    const after = await eventsOf(shop.tenant.id, "p-2");
    expect(after.map((e) => e.type)).toEqual(["order.created", "order.status_changed", "order.paid"]);
    expect(after[1]!.payload).toEqual({ from: "pending", to: "paid" });
    await patch("p-2", { status: "paid" });
    expect(await eventsOf(shop.tenant.id, "p-2")).toHaveLength(3);
  });

  test("a field that does not belong or a bad value is a 422 naming it, and changes nothing", async () => {
    await put("p-3", order);
    const extra = await patch("p-3", { colour: "red" });
    expect(extra.status).toBe(422);
    expect(extra.body.error.message).toMatch(/colour/);
    const bad = await patch("p-3", { total: "lots", status: "lost" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(["total", "status"]));
    const required = await patch("p-3", { number: null });
    expect(required.status).toBe(422);
    expect(required.body.error.message).toMatch(/number/);
    const notObject = await patch("p-3", ["status", "paid"]);
    expect(notObject.status).toBe(422);
    expect(notObject.body.error.message).toMatch(/JSON object of the fields/);
    const got = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "p-3" } });
    expect(got.body).toMatchObject({ total: 42.5, status: "pending", number: "#1001" });
    expect((await eventsOf(shop.tenant.id, "p-3")).map((e) => e.type)).toEqual(["order.created"]);
  });

  test("a record that does not exist, or is another shop's, is a 404; a viewer gets a 403", async () => {
    const missing = await patch("p-none", { status: "paid" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("The order 'p-none' was not found.");
    await put("p-4", order);
    const foreign = await patch("p-4", { status: "paid" }, other.keys.admin);
    expect(foreign.status).toBe(404);
    const viewer = await patch("p-4", { status: "paid" }, shop.keys.viewer);
    expect(viewer.status).toBe(403);
    const got = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "p-4" } });
    expect(got.body.status).toBe("pending");
    expect(await eventsOf(other.tenant.id, "p-4")).toHaveLength(0);
  });
});

describe("tenants and roles are walls", () => {
  test("another shop's key gets 404 for this shop's record, and its writes land in its own shop", async () => {
    await put("o-wall", order);
    const read = await call<Reply>(GET, { key: other.keys.admin, params: { domain: "order", id: "o-wall" } });
    expect(read.status).toBe(404);
    const del = await call<Reply>(DELETE, {
      method: "DELETE",
      key: other.keys.admin,
      params: { domain: "order", id: "o-wall" },
    });
    expect(del.status).toBe(404);
    const theirs = await put("o-wall", { ...order, total: 1 }, other.keys.editor);
    expect(theirs.status).toBe(201);
    const mine = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "o-wall" } });
    expect(mine.body.total).toBe(42.5);
  });

  test("a viewer can read but every write is a 403 that changes nothing", async () => {
    await put("o-view", order);
    const write = await put("o-view", { ...order, status: "cancelled" }, shop.keys.viewer);
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("forbidden");
    const del = await call<Reply>(DELETE, {
      method: "DELETE",
      key: shop.keys.viewer,
      params: { domain: "order", id: "o-view" },
    });
    expect(del.status).toBe(403);
    const got = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "o-view" } });
    expect(got.body.status).toBe("pending");
  });

  test("no key, an unknown key and a revoked key are 401", async () => {
    expect((await call<Reply>(GET, { params: { domain: "order", id: "o-1" } })).status).toBe(401);
    expect(
      (await call<Reply>(GET, { key: "tf_not-a-real-key", params: { domain: "order", id: "o-1" } })).status,
    ).toBe(401);
    const viewerKey = (await listApiKeys(shop.tenant.id)).find((k) => k.role === "viewer")!;
    await revokeApiKey(shop.tenant.id, viewerKey.id);
    const revoked = await call<Reply>(GET, { key: shop.keys.viewer, params: { domain: "order", id: "o-1" } });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe("unauthorized");
  });
});

describe("listEntities", () => {
  test("keyset pages cover every record once, newest first, scoped to the shop", async () => {
    const { tenant } = await createShop("list-shop");
    const { upsertEntity } = await import("@/lib/entities/service");
    for (let i = 0; i < 5; i++)
      await upsertEntity(tenant.id, "customer", `c-${i}`, { email: `c${i}@example.com` }, "test");
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await listEntities(tenant.id, "customer", { limit: 2, cursor });
      seen.push(...result.items.map((i) => i.id));
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    expect(seen).toEqual(["c-4", "c-3", "c-2", "c-1", "c-0"]);
    const search = await listEntities(tenant.id, "customer", { q: "c3@" });
    expect(search.items.map((i) => i.id)).toEqual(["c-3"]);
    await expect(listEntities(tenant.id, "customer", { cursor: "garbage" })).rejects.toThrow(/cursor/);
  });
});
