import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as connectionsRoute, POST as createConnectionRoute } from "@/app/api/v1/connections/route";
import { DELETE as deleteConnectionRoute } from "@/app/api/v1/connections/[id]/route";
import { GET as deliveriesRoute } from "@/app/api/v1/connections/[id]/deliveries/route";
import {
  DELETE as deleteCredentialRoute,
  PUT as rotateCredentialRoute,
} from "@/app/api/v1/credentials/[id]/route";
import { getDb } from "@/lib/db/client";
import { automationRuns, connectionDeliveries } from "@/lib/db/schema";
import { getEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import {
  connectStore,
  deliver,
  listedDeliveries,
  processedDelivery,
  storeFixture,
  type Connection,
} from "@/tests/helpers/stores";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let other: TestShop;
let store: Connection;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  store = await connectStore(shop.keys.editor, "shopify", "nordlicht-goods.myshopify.com");
});
workerForFile();

const deliveries = (connection: Connection) => listedDeliveries(shop.keys.viewer, connection);
const processed = (connection: Connection, deliveryId: string) =>
  processedDelivery(shop.keys.viewer, connection, deliveryId);

const runCount = async (automationId: string) =>
  (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId))).length;

describe("a Shopify store's orders", () => {
  //  order_created ──▶ shippingAddress.countryCode = DE ──true──▶ add_tag(ships-de)
  //                                                     └─false─▶ add_tag(ships-abroad)
  //                ──▶ attributes.note_attributes.0.value = yes ──true──▶ add_tag(gift-wrap)
  //  order_paid ──▶ add_tag(paid-flow)
  let created: string;
  let giftWrap: string;
  let paid: string;
  const order = storeFixture("shopify", "order");
  const eventId = crypto.randomUUID();

  beforeAll(async () => {
    created = await publishFlow(
      shop.keys.editor,
      "Ships to Germany",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "de",
            type: "auto.condition.field",
            params: { path: "shippingAddress.countryCode", operator: "eq", value: "DE" },
          },
          { id: "yes", type: "auto.action.add_tag", params: { tag: "ships-de" } },
          { id: "no", type: "auto.action.add_tag", params: { tag: "ships-abroad" } },
        ],
        [
          ["t", "de"],
          ["de", "yes", "true"],
          ["de", "no", "false"],
        ],
      ),
    );
    giftWrap = await publishFlow(
      shop.keys.editor,
      "Gift wrap",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "gift",
            type: "auto.condition.field",
            params: { path: "attributes.note_attributes.0.value", operator: "eq", value: "yes" },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "gift-wrap" } },
          { id: "plain", type: "auto.action.add_tag", params: { tag: "no-wrap" } },
        ],
        [
          ["t", "gift"],
          ["gift", "tag", "true"],
          ["gift", "plain", "false"],
        ],
      ),
    );
    paid = await publishFlow(
      shop.keys.editor,
      "Paid",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "paid-flow" } },
        ],
        [["t", "tag"]],
      ),
    );
  });

  test("orders/create becomes an order with its known fields mapped and the rest under attributes, and its flows decide by them", async () => {
    const started = Date.now();
    const reply = await deliver("shopify", store, {
      topic: "orders/create",
      body: order,
      deliveryId: eventId,
    });
    // Answered before it is applied: the store hears back well within its timeout.
    expect(reply).toMatchObject({ status: 200, body: { result: "received" } });
    expect(Date.now() - started).toBeLessThan(10_000);

    const delivery = await processed(store, reply.body.id!);
    expect(delivery).toMatchObject({
      topic: "orders/create",
      result: "applied",
      // Pending, it is only "order created", as through PUT.
      reason: "Created the order; events: order created. Created its customer.",
      domain: "order",
      entityId: "5829374652001",
    });
    await settledRuns(created);
    await settledRuns(giftWrap);

    const stored = await getEntity(shop.tenant.id, "order", "5829374652001");
    expect(stored).toMatchObject({
      number: "#1042",
      status: "pending",
      total: 109.75,
      currency: "EUR",
      email: "lena.schmidt@example.de",
      customerId: "7320198734001",
      createdAt: "2026-11-28T09:14:03.000Z",
      shippingAddress: {
        name: "Lena Schmidt",
        city: "Hamburg",
        province: "Hamburg",
        country: "Germany",
        countryCode: "DE",
        zip: "20095",
      },
      discountCodes: ["WINTER10"],
      financialStatus: "pending",
      fulfillmentStatus: "unfulfilled",
      sourceName: "web",
    });
    const lineItems = stored.lineItems as Record<string, unknown>[];
    expect(lineItems).toEqual([
      expect.objectContaining({
        sku: "BEANIE-FJORD",
        title: "Merino Beanie",
        quantity: 2,
        price: 29,
        vendor: "Nordlicht Knitwear",
        productType: "Hats",
        productId: "8812736450011",
        variantTitle: "Fjord Blue",
      }),
      expect.objectContaining({
        sku: "MITT-CHAR-M",
        vendor: "Alpine Supply Co.",
        variantTitle: "Charcoal / M",
      }),
    ]);
    const attributes = stored.attributes as Record<string, unknown>;
    expect(attributes.note_attributes).toEqual(order.note_attributes);
    expect(attributes.browser_ip).toBe("203.0.113.24");
    expect(attributes.billing_address).toEqual(order.billing_address);
    expect(attributes.shipping_lines).toEqual(order.shipping_lines);
    expect(stored.tags).toEqual(
      expect.arrayContaining(["newsletter", "first-order", "ships-de", "gift-wrap"]),
    );
    expect(stored.tags).not.toContain("ships-abroad");
    expect(stored.tags).not.toContain("no-wrap");
    // Arriving unpaid, it fired no "order paid" flow.
    expect(await runCount(paid)).toBe(0);
  });

  test("the same delivery again is listed as a duplicate and starts nothing", async () => {
    const before = await runCount(created);
    const again = await deliver("shopify", store, {
      topic: "orders/create",
      body: order,
      deliveryId: eventId,
    });
    expect(again).toMatchObject({ status: 200, body: { result: "duplicate" } });
    const listed = await deliveries(store);
    expect(listed.find((d) => d.id === again.body.id)).toMatchObject({
      result: "duplicate",
      reason: expect.stringContaining("received before"),
    });
    // Give the worker a moment to (wrongly) act on it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runCount(created)).toBe(before);
  });

  test("orders/paid fires the order-paid flows", async () => {
    const paidOrder = { ...order, financial_status: "paid", updated_at: "2026-11-28T10:20:00+01:00" };
    const reply = await deliver("shopify", store, {
      topic: "orders/paid",
      body: paidOrder,
      deliveryId: crypto.randomUUID(),
    });
    expect(reply.status).toBe(200);
    expect(await processed(store, reply.body.id!)).toMatchObject({ result: "applied" });
    const [run] = await settledRuns(paid);
    expect(run).toMatchObject({ status: "succeeded" });
    const stored = await getEntity(shop.tenant.id, "order", "5829374652001");
    expect(stored).toMatchObject({ status: "paid", financialStatus: "paid" });
    expect(stored.tags).toContain("paid-flow");
  });

  test("an older orders/updated is stale and changes nothing", async () => {
    const before = await getEntity(shop.tenant.id, "order", "5829374652001");
    const older = {
      ...order,
      financial_status: "voided",
      total_price: "1.00",
      updated_at: "2026-11-28T10:14:04+01:00",
    };
    const reply = await deliver("shopify", store, {
      topic: "orders/updated",
      body: older,
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(store, reply.body.id!)).toMatchObject({
      result: "stale",
      reason: expect.stringContaining("later version"),
      domain: "order",
      entityId: "5829374652001",
    });
    const after = await getEntity(shop.tenant.id, "order", "5829374652001");
    expect(after).toEqual(before);
  });

  test("a wrong or missing signature is a 401 and records nothing", async () => {
    const count = async () =>
      (
        await getDb()
          .select({ n: sql<number>`count(*)::int` })
          .from(connectionDeliveries)
          .where(eq(connectionDeliveries.connectionId, store.id))
      )[0]!.n;
    const before = await count();
    const forged = await deliver("shopify", store, {
      topic: "orders/create",
      body: { ...order, id: 1 },
      signature: crypto.createHmac("sha256", "not-the-secret").update("x").digest("base64"),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error?.message).toMatch(/signature does not match/);
    const unsigned = await deliver("shopify", store, {
      topic: "orders/create",
      body: order,
      signature: null,
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error?.message).toMatch(/signature header is missing/);
    // Signed for one body, sent with another.
    const swapped = await deliver("shopify", store, {
      topic: "orders/create",
      raw: JSON.stringify({ ...order, total_price: "0.01" }),
      body: null,
      signature: crypto.createHmac("sha256", store.secret).update(JSON.stringify(order)).digest("base64"),
    });
    expect(swapped.status).toBe(401);
    // Signed, but holding text PostgreSQL cannot keep: the store is told, and nothing is recorded.
    for (const raw of ['{"id": 9, "note": "a\\u0000b"}', '{"id": 9, "note": "\\ud83d"}']) {
      const unstorable = await deliver("shopify", store, { topic: "orders/create", raw, body: null });
      expect(unstorable.status, raw).toBe(400);
      expect(unstorable.body.error?.message).toMatch(/cannot be stored/);
    }
    // Signed, but not JSON (a form-encoded webhook): refused by the statement that would store it.
    for (const raw of ["id=9&note=hi", '{"id": 9,', '{"id": 9} trailing']) {
      const notJson = await deliver("shopify", store, { topic: "orders/create", raw, body: null });
      expect(notJson.status, raw).toBe(400);
      expect(notJson.body.error?.message, raw).toBe(
        "The body is not valid JSON; set the webhook's format to JSON.",
      );
    }
    expect(await count()).toBe(before);
  });

  test("a refund and a fulfillment become records of their own", async () => {
    const refund = await deliver("shopify", store, {
      topic: "refunds/create",
      body: storeFixture("shopify", "refund"),
      deliveryId: crypto.randomUUID(),
    });
    const fulfillment = await deliver("shopify", store, {
      topic: "fulfillments/create",
      body: storeFixture("shopify", "fulfillment"),
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(store, refund.body.id!)).toMatchObject({ result: "applied" });
    expect(await processed(store, fulfillment.body.id!)).toMatchObject({ result: "applied" });
    expect(await getEntity(shop.tenant.id, "refund", "982374651001")).toMatchObject({
      orderId: "5829374652001",
      amount: 52.6,
      reason: "Mittens too small",
      status: "succeeded",
    });
    expect(await getEntity(shop.tenant.id, "shipment", "4918273645001")).toMatchObject({
      orderId: "5829374652001",
      status: "in_transit",
      carrier: "DHL Express",
      tracking: "JD014600006281230704",
    });
  });

  test("an inventory level sets the stock of the product holding its item", async () => {
    const product = await deliver("shopify", store, {
      topic: "products/update",
      body: storeFixture("shopify", "product"),
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(store, product.body.id!)).toMatchObject({ result: "applied" });
    expect(await getEntity(shop.tenant.id, "product", "8812736450011")).toMatchObject({
      inventory: 20,
    });
    const level = await deliver("shopify", store, {
      topic: "inventory_levels/update",
      body: {
        inventory_item_id: 46210938475013,
        location_id: 71827364001,
        available: 2,
        updated_at: "2026-11-29T08:00:00+01:00",
        admin_graphql_api_id: "gid://shopify/InventoryLevel/71827364001?inventory_item_id=46210938475013",
      },
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(store, level.body.id!)).toMatchObject({
      result: "applied",
      domain: "product",
      entityId: "8812736450011",
    });
    expect(await getEntity(shop.tenant.id, "product", "8812736450011")).toMatchObject({
      inventory: 16,
    });
  });

  test("a topic Tillflow does not read is refused with what to do", async () => {
    const reply = await deliver("shopify", store, {
      topic: "app/uninstalled",
      body: { id: 1 },
      deliveryId: crypto.randomUUID(),
    });
    expect(await processed(store, reply.body.id!)).toMatchObject({
      result: "refused",
      reason: expect.stringContaining("Delete that webhook in Shopify"),
    });
  });
});

describe("connections are the shop's own", () => {
  test("a viewer lists connections and never sees the secret; only an editor connects or disconnects", async () => {
    const listed = await call<{
      items: { id: string; platform: string; url: string; credential: { last4: string } }[];
    }>(connectionsRoute, { key: shop.keys.viewer });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        id: store.id,
        platform: "shopify",
        name: "nordlicht-goods.myshopify.com",
        url: expect.stringContaining(`/api/connect/shopify/${store.token}`),
        credential: expect.objectContaining({ last4: store.secret.slice(-4) }),
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(store.secret);
    const refused = await call(createConnectionRoute, {
      method: "POST",
      key: shop.keys.viewer,
      body: { platform: "shopify", name: "x", secret: "abcdefgh1234" },
    });
    expect(refused.status).toBe(403);
    const removed = await call(deleteConnectionRoute, {
      method: "DELETE",
      key: shop.keys.viewer,
      params: { id: store.id },
    });
    expect(removed.status).toBe(403);
  });

  test("another shop's connection is a 404, and its URL does not take this shop's signature", async () => {
    for (const key of [other.keys.admin, other.keys.viewer]) {
      expect((await call(deliveriesRoute, { key, params: { id: store.id } })).status).toBe(404);
    }
    const theirDelete = await call(deleteConnectionRoute, {
      method: "DELETE",
      key: other.keys.admin,
      params: { id: store.id },
    });
    expect(theirDelete.status).toBe(404);
    const theirs = await connectStore(other.keys.editor, "shopify");
    const crossed = await deliver(
      "shopify",
      { ...theirs, secret: store.secret },
      { topic: "orders/create", body: {} },
    );
    expect(crossed.status).toBe(401);
    // A Shopify URL is not a WooCommerce one.
    const wrongPlatform = await deliver("woocommerce", store, { topic: "order.created", body: {} });
    expect(wrongPlatform.status).toBe(404);
  });

  test("bad input is a plain 4xx that makes nothing", async () => {
    const cases = [
      { platform: "magento", name: "x", secret: "abcdefgh1234" },
      { platform: "shopify", name: "", secret: "abcdefgh1234" },
      { platform: "shopify", name: "short secret", secret: "abc" },
      { platform: "shopify", name: "extra", secret: "abcdefgh1234", token: "mine" },
    ];
    for (const body of cases) {
      const reply = await call(createConnectionRoute, { method: "POST", key: shop.keys.editor, body });
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.error.message).toMatch(/^The connection is invalid/);
    }
    const taken = await call(createConnectionRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { platform: "shopify", name: "nordlicht-goods.myshopify.com", secret: "abcdefgh1234" },
    });
    expect(taken.status).toBe(409);
    const listed = await call<{ items: unknown[] }>(connectionsRoute, { key: shop.keys.viewer });
    expect(listed.body.items).toHaveLength(1);
  });

  test("the connection's secret cannot be deleted alone; disconnecting removes both, and the URL stops answering", async () => {
    const temporary = await connectStore(shop.keys.editor, "shopify", "temporary");
    const [row] = await getDb().execute<{ credential_id: string }>(
      sql`select credential_id from store_connections where id = ${temporary.id}`,
    );
    // Credentials are deleted and rotated by admins (an editor is refused before anything else).
    const byEditor = await call(deleteCredentialRoute, {
      method: "DELETE",
      key: shop.keys.editor,
      params: { id: row!.credential_id },
    });
    expect(byEditor.status).toBe(403);
    const alone = await call(deleteCredentialRoute, {
      method: "DELETE",
      key: shop.keys.admin,
      params: { id: row!.credential_id },
    });
    expect(alone.status).toBe(409);
    expect(alone.body.error.message).toMatch(/Settings → Connections/);
    // Delivered to once, the connection is remembered by the web server; a rotated secret is
    // still taken at once, and the old one refused.
    const order = { id: 31, name: "#31", currency: "EUR", total_price: "1.00" };
    expect((await deliver("shopify", temporary, { topic: "orders/create", body: order })).status).toBe(200);
    const rotated = await call(rotateCredentialRoute, {
      method: "PUT",
      key: shop.keys.admin,
      params: { id: row!.credential_id },
      body: { value: "rotated-secret-0042" },
    });
    expect(rotated.status).toBe(200);
    const withNew = { ...temporary, secret: "rotated-secret-0042" };
    expect((await deliver("shopify", withNew, { topic: "orders/create", body: order })).status).toBe(200);
    expect((await deliver("shopify", temporary, { topic: "orders/create", body: order })).status).toBe(401);
    const gone = await call(deleteConnectionRoute, {
      method: "DELETE",
      key: shop.keys.editor,
      params: { id: temporary.id },
    });
    expect(gone.status).toBe(200);
    const [left] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from credentials where id = ${row!.credential_id}`,
    );
    expect(left!.n).toBe(0);
    expect((await deliver("shopify", withNew, { topic: "orders/create", body: order })).status).toBe(404);
  });
});
