import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { automationRuns, connectionDeliveries, events } from "@/lib/db/schema";
import { getEntity } from "@/lib/entities/service";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import {
  connectStore,
  deliver,
  processedDelivery,
  storeFixture,
  type Connection,
} from "@/tests/helpers/stores";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Issue 47: a store's webhook cannot be replayed. The signature covers the body only — the topic
 * and the delivery id are headers anyone holding a captured delivery can change — so each test
 * posts a body signed with the connection's secret, as an eavesdropper could repost it, through
 * the real endpoint and the real worker, and checks that the shop's records, events and runs are
 * as they were.
 */

let shop: TestShop;
let shopify: Connection;
let woo: Connection;

beforeAll(async () => {
  shop = await createShop();
  shopify = await connectStore(shop.keys.editor, "shopify", "replayed.myshopify.com");
  woo = await connectStore(shop.keys.editor, "woocommerce", "replayed.example.de");
});
workerForFile();

const processed = (connection: Connection, id: string) => processedDelivery(shop.keys.viewer, connection, id);

const rowCount = async (connection: Connection, topic?: string) =>
  (
    await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(connectionDeliveries)
      .where(
        and(
          eq(connectionDeliveries.connectionId, connection.id),
          topic ? eq(connectionDeliveries.topic, topic) : undefined,
        ),
      )
  )[0]!.n;

const runCount = async (automationId: string) =>
  (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId))).length;

const eventCount = async (type: string, entityId: string) =>
  (
    await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(and(eq(events.tenantId, shop.tenant.id), eq(events.type, type), eq(events.entityId, entityId)))
  )[0]!.n;

const entityExists = async (domain: string, id: string) =>
  (
    await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from entities where tenant_id = ${shop.tenant.id} and domain = ${domain} and id = ${id}`,
    )
  )[0]!.n > 0;

/** Gives the worker a moment to (wrongly) act on a delivery it should ignore. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

test("a signed delivery without its id is a 400 that writes nothing", async () => {
  const before = { shopify: await rowCount(shopify), woo: await rowCount(woo) };
  const order = { ...storeFixture("shopify", "order"), id: 470001 };
  const shopifyReply = await deliver("shopify", shopify, {
    topic: "orders/create",
    body: order,
    deliveryId: null,
  });
  expect(shopifyReply.status).toBe(400);
  expect(shopifyReply.body.error?.message).toMatch(
    /X-Shopify-Event-Id or X-Shopify-Webhook-Id header is missing.*Nothing was recorded/,
  );
  const wooReply = await deliver("woocommerce", woo, {
    topic: "order.created",
    body: { ...storeFixture("woocommerce", "order"), id: 470002 },
  });
  expect(wooReply.status).toBe(400);
  expect(wooReply.body.error?.message).toMatch(/X-WC-Webhook-Delivery-ID header is missing/);
  await settle();
  expect({ shopify: await rowCount(shopify), woo: await rowCount(woo) }).toEqual(before);
  expect(await entityExists("order", "470001")).toBe(false);
  expect(await entityExists("order", "470002")).toBe(false);
});

describe("a captured Shopify order, posted again", () => {
  //  order_created ──▶ add_tag(created-flow)
  let createdFlow: string;
  const created = storeFixture("shopify", "order");
  const orderId = String(created.id);
  const paid = { ...created, financial_status: "paid", updated_at: "2026-11-28T10:20:00+01:00" };
  const firstId = crypto.randomUUID();

  beforeAll(async () => {
    createdFlow = await publishFlow(
      shop.keys.editor,
      "Created",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "created-flow" } },
        ],
        [["t", "tag"]],
      ),
    );
    const first = await deliver("shopify", shopify, {
      topic: "orders/create",
      body: created,
      deliveryId: firstId,
    });
    expect(await processed(shopify, first.body.id!)).toMatchObject({ result: "applied" });
    await settledRuns(createdFlow);
    const later = await deliver("shopify", shopify, {
      topic: "orders/paid",
      body: paid,
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(shopify, later.body.id!)).toMatchObject({ result: "applied" });
    expect(await getEntity(shop.tenant.id, "order", orderId)).toMatchObject({ status: "paid" });
  });

  /** The order, its events and its flow's runs, to compare before and after a replay. */
  const state = async () => ({
    order: await getEntity(shop.tenant.id, "order", orderId),
    created: await eventCount("order.created", orderId),
    paid: await eventCount("order.paid", orderId),
    runs: await runCount(createdFlow),
  });

  test("under the same id, it is acknowledged as a duplicate and changes nothing", async () => {
    const before = await state();
    const again = await deliver("shopify", shopify, {
      topic: "orders/create",
      body: created,
      deliveryId: firstId,
    });
    expect(again).toMatchObject({ status: 200, body: { result: "duplicate" } });
    await settle();
    expect(await state()).toEqual(before);
  });

  test("under a new id (the id header is not signed), it is still a duplicate and changes nothing", async () => {
    const before = await state();
    const rowsBefore = await rowCount(shopify);
    for (const topic of ["orders/create", "orders/paid"]) {
      const body = topic === "orders/create" ? created : paid;
      const again = await deliver("shopify", shopify, { topic, body, deliveryId: crypto.randomUUID() });
      expect(again, topic).toMatchObject({ status: 200, body: { result: "duplicate" } });
    }
    // 100 more copies are listed as the same one row each: a replayed body adds no row per call.
    const copies = await Promise.all(
      Array.from({ length: 100 }, () =>
        deliver("shopify", shopify, { topic: "orders/paid", body: paid, deliveryId: crypto.randomUUID() }),
      ),
    );
    expect(new Set(copies.map((c) => `${c.status} ${c.body.result}`))).toEqual(new Set(["200 duplicate"]));
    expect(new Set(copies.map((c) => c.body.id)).size).toBe(1);
    // The first test's copy of orders/create was listed already; orders/paid's copies are one row.
    expect(await rowCount(shopify)).toBe(rowsBefore + 1);
    await settle();
    expect(await state()).toEqual(before);
  });

  test("under another orders topic, its older updated_at makes it stale: nothing changes", async () => {
    const before = await state();
    for (const topic of ["orders/updated", "orders/cancelled"]) {
      const again = await deliver("shopify", shopify, {
        topic,
        body: created,
        deliveryId: crypto.randomUUID(),
      });
      expect(again.status).toBe(200);
      expect(await processed(shopify, again.body.id!), topic).toMatchObject({
        result: "stale",
        domain: "order",
        entityId: orderId,
      });
    }
    await settle();
    expect(await state()).toEqual(before);
  });

  test("under a topic of another resource, it is refused and makes no record of that kind", async () => {
    const before = await state();
    for (const [topic, domain] of [
      ["customers/create", "customer"],
      ["products/create", "product"],
      ["checkouts/create", "cart"],
    ] as const) {
      const again = await deliver("shopify", shopify, {
        topic,
        body: created,
        deliveryId: crypto.randomUUID(),
      });
      expect(await processed(shopify, again.body.id!), topic).toMatchObject({
        result: "refused",
        reason: expect.stringContaining("is a Shopify Order"),
      });
      expect(await entityExists(domain, orderId), domain).toBe(false);
    }
    // A fulfillment's body (it has an order_id, as a refund's has) is not a refund either.
    const fulfillment = await deliver("shopify", shopify, {
      topic: "refunds/create",
      body: storeFixture("shopify", "fulfillment"),
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(shopify, fulfillment.body.id!)).toMatchObject({ result: "refused" });
    expect(await entityExists("refund", "4918273645001")).toBe(false);
    expect(await state()).toEqual(before);
  });

  test("two identical deliveries at once are applied once", async () => {
    const runsBefore = await runCount(createdFlow);
    let orders = 0;
    //  Both at the same moment: under the same id, and the same body under two ids.
    for (const [n, sameId] of [
      [470010, true],
      [470011, false],
    ] as const) {
      const body = { ...created, id: n, name: `#${n}`, admin_graphql_api_id: `gid://shopify/Order/${n}` };
      const id = crypto.randomUUID();
      const replies = await Promise.all(
        [0, 1].map(() =>
          deliver("shopify", shopify, {
            topic: "orders/create",
            body,
            deliveryId: sameId ? id : crypto.randomUUID(),
          }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
      expect(replies.map((r) => r.body.result).sort()).toEqual(["duplicate", "received"]);
      const fresh = replies.find((r) => r.body.result === "received")!;
      expect(await processed(shopify, fresh.body.id!)).toMatchObject({ result: "applied" });
      orders += 1;
      await settledRuns(createdFlow, runsBefore + orders);
      await settle();
      expect(await eventCount("order.created", String(n)), `order ${n}`).toBe(1);
    }
    // The flow started once for each order, not twice.
    expect(await runCount(createdFlow)).toBe(runsBefore + 2);
  });
});

describe("a Shopify stock level", () => {
  //  product_low_stock(threshold 20) ──▶ add_tag(low-flow)
  let lowFlow: string;
  const product = storeFixture("shopify", "product");
  const productId = String(product.id);
  const level = (available: number, updatedAt: string, item = 46210938475013) => ({
    inventory_item_id: item,
    location_id: 71827364001,
    available,
    updated_at: updatedAt,
    admin_graphql_api_id: `gid://shopify/InventoryLevel/71827364001?inventory_item_id=${item}`,
  });
  const post = async (body: unknown, topic = "inventory_levels/update") => {
    const reply = await deliver("shopify", shopify, { topic, body, deliveryId: crypto.randomUUID() });
    expect(reply.status).toBe(200);
    return processed(shopify, reply.body.id!);
  };
  const inventory = async () => (await getEntity(shop.tenant.id, "product", productId)).inventory;

  beforeAll(async () => {
    lowFlow = await publishFlow(
      shop.keys.editor,
      "Low stock",
      flow(
        [
          { id: "t", type: "auto.trigger.product_low_stock", params: { threshold: 20 } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "low-flow" } },
        ],
        [["t", "tag"]],
      ),
    );
    expect(await post(product, "products/update")).toMatchObject({ result: "applied" });
    // 14 + 6.
    expect(await inventory()).toBe(20);
  });

  test("an older level after a newer one changes nothing and fires no low-stock flow", async () => {
    expect(await post(level(30, "2026-11-29T09:00:00+01:00"))).toMatchObject({ result: "applied" });
    expect(await inventory()).toBe(44);
    const before = await getEntity(shop.tenant.id, "product", productId);
    // Applied, it would take the stock from 44 to 14: below the flow's 20.
    expect(await post(level(0, "2026-11-29T08:00:00+01:00"))).toMatchObject({
      result: "stale",
      domain: "product",
      entityId: productId,
    });
    // A level older than the product's own update (its body counted that level already) too, for
    // an item no level has been applied for yet.
    expect(await post(level(0, "2026-11-26T08:00:00+01:00", 46210938475011))).toMatchObject({
      result: "stale",
    });
    await settle();
    expect(await getEntity(shop.tenant.id, "product", productId)).toEqual(before);
    expect(await eventCount("product.low_stock", productId)).toBe(0);
    expect(await runCount(lowFlow)).toBe(0);

    // The flow does fire for a level that is newer: the stale ones above were held back, not lost.
    expect(await post(level(0, "2026-11-29T10:00:00+01:00"))).toMatchObject({ result: "applied" });
    expect(await inventory()).toBe(14);
    expect(await settledRuns(lowFlow)).toHaveLength(1);
  });

  test("a level posted again under a new id, or under the products topic, changes nothing", async () => {
    const before = await getEntity(shop.tenant.id, "product", productId);
    const body = level(0, "2026-11-29T10:00:00+01:00");
    const again = await deliver("shopify", shopify, {
      topic: "inventory_levels/update",
      body,
      deliveryId: crypto.randomUUID(),
    });
    expect(again).toMatchObject({ status: 200, body: { result: "duplicate" } });
    expect(await post(body, "products/update")).toMatchObject({
      result: "refused",
      reason: expect.stringContaining("is a Shopify InventoryLevel"),
    });
    await settle();
    expect(await getEntity(shop.tenant.id, "product", productId)).toEqual(before);
    expect(await runCount(lowFlow)).toBe(1);
  });
});

describe("a captured WooCommerce order, posted again", () => {
  const order = { ...storeFixture("woocommerce", "order"), id: 470020 };

  test("under a new id it is a duplicate; under the customer topic it is refused", async () => {
    const first = await deliver("woocommerce", woo, {
      topic: "order.created",
      body: order,
      deliveryId: "47002001",
    });
    expect(await processed(woo, first.body.id!)).toMatchObject({ result: "applied" });
    // The order-created flow above tags it: compare once that run has done so.
    const before = await until(
      () => getEntity(shop.tenant.id, "order", "470020"),
      (order) => Array.isArray(order.tags) && order.tags.includes("created-flow"),
      { timeoutMs: 15_000, what: "the order-created flow to tag order 470020" },
    );
    const again = await deliver("woocommerce", woo, {
      topic: "order.created",
      body: order,
      deliveryId: "47002002",
    });
    expect(again).toMatchObject({ status: 200, body: { result: "duplicate" } });
    for (const topic of ["customer.created", "product.updated"]) {
      const crossed = await deliver("woocommerce", woo, {
        topic,
        body: order,
        deliveryId: String(crypto.randomInt(1, 1_000_000)),
      });
      expect(await processed(woo, crossed.body.id!), topic).toMatchObject({
        result: "refused",
        reason: expect.stringContaining("is a WooCommerce order"),
      });
    }
    await settle();
    expect(await entityExists("customer", "470020")).toBe(false);
    expect(await entityExists("product", "470020")).toBe(false);
    expect(await getEntity(shop.tenant.id, "order", "470020")).toEqual(before);
    expect(await eventCount("order.created", "470020")).toBe(1);
  });
});

test("1,000 unsigned WooCommerce pings, each naming another webhook, leave one row", async () => {
  const replies: number[] = [];
  for (let batch = 0; batch < 20; batch++) {
    const sent = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        deliver("woocommerce", woo, { raw: `webhook_id=${batch * 50 + i + 1}`, body: null, signature: null }),
      ),
    );
    replies.push(...sent.map((r) => r.status));
  }
  expect(replies.filter((s) => s === 200)).toHaveLength(1_000);
  expect(await rowCount(woo, "ping")).toBe(1);
  const [row] = await getDb()
    .select({ reason: connectionDeliveries.reason })
    .from(connectionDeliveries)
    .where(and(eq(connectionDeliveries.connectionId, woo.id), eq(connectionDeliveries.topic, "ping")));
  expect(row!.reason).toMatch(/webhook \d+ was saved/);
});
