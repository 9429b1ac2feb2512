import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { automationRuns, connectionDeliveries } from "@/lib/db/schema";
import { getEntity } from "@/lib/entities/service";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import {
  connectStore,
  deliver,
  processedDelivery,
  storeFixture,
  type Connection,
} from "@/tests/helpers/stores";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let store: Connection;

beforeAll(async () => {
  shop = await createShop();
  store = await connectStore(shop.keys.editor, "woocommerce", "shop.example.de");
});
workerForFile();

const processed = (deliveryId: string) => processedDelivery(shop.keys.viewer, store, deliveryId);

const deliveryCount = async () =>
  (
    await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(connectionDeliveries)
      .where(eq(connectionDeliveries.connectionId, store.id))
  )[0]!.n;

describe("a WooCommerce store", () => {
  test("the ping WooCommerce sends when a webhook is saved is answered 200 and listed", async () => {
    const ping = await deliver("woocommerce", store, { raw: "webhook_id=12", body: null, signature: null });
    expect(ping).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await processed(ping.body.id!)).toMatchObject({
      topic: "ping",
      result: "applied",
      reason: expect.stringContaining("webhook 12"),
    });
  });

  test("order.created becomes an order with billing, shipping and meta_data kept, fires its flows, and a copy is a duplicate", async () => {
    //  order_created ──▶ shippingAddress.countryCode = DE ──true──▶ add_tag(ships-de)
    //                ──▶ attributes.meta_data.1.value = "Alles Gute!" ──true──▶ add_tag(gift-message)
    const flowId = await publishFlow(
      shop.keys.editor,
      "German gifts",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "de",
            type: "auto.condition.field",
            params: { path: "shippingAddress.countryCode", operator: "eq", value: "DE" },
          },
          {
            id: "gift",
            type: "auto.condition.field",
            params: { path: "attributes.meta_data.1.value", operator: "eq", value: "Alles Gute!" },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "gift-message" } },
        ],
        [
          ["t", "de"],
          ["de", "gift", "true"],
          ["gift", "tag", "true"],
        ],
      ),
    );
    const order = storeFixture("woocommerce", "order");
    const deliveryId = String(crypto.randomInt(1, 1_000_000));
    const reply = await deliver("woocommerce", store, { topic: "order.created", body: order, deliveryId });
    expect(reply).toMatchObject({ status: 200, body: { result: "received" } });
    expect(await processed(reply.body.id!)).toMatchObject({
      result: "applied",
      // It arrived paid: "order paid" flows start too, as WooCommerce's own paid webhook would.
      reason:
        "Created the order; events: order created, order status changed, order paid. Created its customer.",
      domain: "order",
      entityId: "7314",
    });
    const [run] = await settledRuns(flowId);
    expect(run).toMatchObject({ status: "succeeded" });

    const stored = await getEntity(shop.tenant.id, "order", "7314");
    expect(stored).toMatchObject({
      number: "#7314",
      // WooCommerce's "processing" is paid: the order arrived paid.
      status: "paid",
      total: 53.44,
      currency: "EUR",
      email: "jonas.weber@example.de",
      customerId: "418",
      createdAt: "2026-11-28T10:20:45.000Z",
      shippingAddress: { name: "Jonas Weber", city: "Köln", province: "NW", countryCode: "DE", zip: "50668" },
      discountCodes: ["welcome5"],
      financialStatus: "paid",
      sourceName: "checkout",
      lineItems: [
        expect.objectContaining({
          sku: "MUG-SAND",
          title: "Ceramic Mug - Sand",
          quantity: 2,
          productId: "311",
        }),
        // No SKU: the product's id tells the item apart.
        expect.objectContaining({ sku: "327", title: "Linen Tea Towel", quantity: 1, price: 19.33 }),
      ],
    });
    const attributes = stored.attributes as Record<string, unknown>;
    expect(attributes.billing).toEqual(order.billing);
    expect(attributes.meta_data).toEqual(order.meta_data);
    expect(attributes.customer_note).toBe("Please leave it with the neighbour.");
    expect(stored.tags).toContain("gift-message");

    const runs = async () =>
      (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, flowId))).length;
    const copy = await deliver("woocommerce", store, { topic: "order.created", body: order, deliveryId });
    expect(copy).toMatchObject({ status: 200, body: { result: "duplicate" } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runs()).toBe(1);
  });

  test("an older order.updated is stale; a newer one updates the order", async () => {
    const order = storeFixture("woocommerce", "order");
    const older = { ...order, status: "cancelled", date_modified_gmt: "2026-11-28T10:00:00" };
    const stale = await deliver("woocommerce", store, {
      topic: "order.updated",
      body: older,
      deliveryId: String(crypto.randomInt(1, 1_000_000)),
    });
    expect(await processed(stale.body.id!)).toMatchObject({ result: "stale" });
    expect(await getEntity(shop.tenant.id, "order", "7314")).toMatchObject({ status: "paid" });

    const completed = { ...order, status: "completed", date_modified_gmt: "2026-11-29T08:00:00" };
    const newer = await deliver("woocommerce", store, {
      topic: "order.updated",
      body: completed,
      deliveryId: String(crypto.randomInt(1, 1_000_000)),
    });
    expect(await processed(newer.body.id!)).toMatchObject({ result: "applied" });
    expect(await getEntity(shop.tenant.id, "order", "7314")).toMatchObject({
      status: "fulfilled",
      fulfillmentStatus: "fulfilled",
    });
  });

  test("a wrong signature is a 401 and records nothing", async () => {
    const before = await deliveryCount();
    const forged = await deliver("woocommerce", store, {
      topic: "order.created",
      body: storeFixture("woocommerce", "order"),
      signature: crypto.createHmac("sha256", "guess").update("{}").digest("base64"),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error?.message).toMatch(/X-WC-Webhook-Signature/i);
    // A ping-looking body with a topic is a delivery like any other: it must be signed.
    const disguised = await deliver("woocommerce", store, {
      topic: "order.created",
      raw: "webhook_id=12",
      body: null,
      signature: null,
    });
    expect(disguised.status).toBe(401);
    expect(await deliveryCount()).toBe(before);
  });
});
