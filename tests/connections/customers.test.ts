import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as connectRoute } from "@/app/api/connect/[platform]/[token]/route";
import { TEST_MARKER } from "@/lib/connections/mapped";
import { testDeliveryRequest } from "@/lib/connections/test-delivery";
import { getDb } from "@/lib/db/client";
import { automationRuns, entities } from "@/lib/db/schema";
import { getEntity } from "@/lib/entities/service";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import {
  connectStore,
  deliver,
  listedDeliveries,
  platformSignature,
  processedDelivery,
  storeFixture,
  type Connection,
} from "@/tests/helpers/stores";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Issue 49: a store's order (or checkout) makes its customer a record, in the same delivery, so
 * `{entity.customer.…}` works; "Send a test delivery" is a test. Real endpoint, real worker.
 */

let shop: TestShop;
let shopify: Connection;
let woo: Connection;

beforeAll(async () => {
  shop = await createShop();
  shopify = await connectStore(shop.keys.editor, "shopify");
  woo = await connectStore(shop.keys.editor, "woocommerce");
});
workerForFile();

async function applied(
  platform: "shopify" | "woocommerce",
  connection: Connection,
  topic: string,
  body: unknown,
) {
  const reply = await deliver(platform, connection, { topic, body, deliveryId: crypto.randomUUID() });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return processedDelivery(shop.keys.viewer, connection, reply.body.id!);
}

/** The shop's customers with this email (one, when they are matched rather than duplicated). */
async function customersWithEmail(mail: string) {
  return getDb()
    .select({ id: entities.id, data: entities.data })
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, shop.tenant.id),
        eq(entities.domain, "customer"),
        eq(entities.email, mail.toLowerCase()),
      ),
    );
}

const runCount = async (automationId: string) =>
  (
    await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(automationRuns)
      .where(eq(automationRuns.automationId, automationId))
  )[0]!.n;

describe("a Shopify order's customer", () => {
  //  order_created ──▶ add_note("Hi {entity.customer.firstName}, …")
  let greeting: string;
  const order = storeFixture("shopify", "order");

  beforeAll(async () => {
    greeting = await publishFlow(
      shop.keys.editor,
      "Greet the customer",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "hi",
            type: "auto.action.add_note",
            params: { body: "Hi {entity.customer.firstName}, {entity.customer.email}" },
          },
        ],
        [["t", "hi"]],
      ),
    );
  });

  test("orders/create makes the embedded customer a record, linked to the order, and its tokens render in the run", async () => {
    const delivery = await applied("shopify", shopify, "orders/create", order);
    expect(delivery).toMatchObject({
      result: "applied",
      reason: "Created the order; events: order created. Created its customer.",
    });
    const customer = await getEntity(shop.tenant.id, "customer", "7320198734001");
    expect(customer).toMatchObject({
      email: "lena.schmidt@example.de",
      name: "Lena Schmidt",
      firstName: "Lena",
      lastName: "Schmidt",
      acceptsMarketing: true,
      city: "Hamburg",
      country: "Germany",
      tags: ["newsletter"],
    });
    expect(await getEntity(shop.tenant.id, "order", "5829374652001")).toMatchObject({
      customerId: "7320198734001",
    });
    const [run] = await settledRuns(greeting);
    expect(run).toMatchObject({ status: "succeeded" });
    const stored = await getEntity(shop.tenant.id, "order", "5829374652001");
    expect(stored.notes.map((n) => n.body)).toContain("Hi Lena, lena.schmidt@example.de");
  });

  test("a later order by the same customer updates the record, not a second one; an older one leaves it", async () => {
    // Stored with an order count from its own webhook: an order's customer (which has none) keeps it.
    await applied("shopify", shopify, "customers/update", {
      ...(order.customer as Record<string, unknown>),
      orders_count: 3,
      updated_at: "2026-11-28T10:15:00+01:00",
    });
    const later = {
      ...order,
      id: 5829374652002,
      name: "#1043",
      updated_at: "2026-12-01T09:00:00+01:00",
      customer: {
        ...(order.customer as Record<string, unknown>),
        first_name: "Lena Marie",
        phone: "+49 40 1234567",
        updated_at: "2026-12-01T08:59:00+01:00",
      },
    };
    expect(await applied("shopify", shopify, "orders/create", later)).toMatchObject({
      result: "applied",
      reason: expect.stringContaining("Updated its customer."),
    });
    expect(await customersWithEmail("lena.schmidt@example.de")).toHaveLength(1);
    expect(await getEntity(shop.tenant.id, "customer", "7320198734001")).toMatchObject({
      firstName: "Lena Marie",
      name: "Lena Marie Schmidt",
      phone: "+49 40 1234567",
      ordersCount: 3,
    });

    const older = {
      ...order,
      id: 5829374652003,
      name: "#1044",
      customer: { ...(order.customer as Record<string, unknown>), first_name: "Old" },
    };
    expect(await applied("shopify", shopify, "orders/create", older)).toMatchObject({
      result: "applied",
      reason: expect.stringContaining("Its customer holds a later version from the store; left as it is."),
    });
    expect(await getEntity(shop.tenant.id, "customer", "7320198734001")).toMatchObject({
      firstName: "Lena Marie",
    });
    // Still linked: the order names the record it has.
    expect(await getEntity(shop.tenant.id, "order", "5829374652003")).toMatchObject({
      customerId: "7320198734001",
    });
  });

  test("a checkout's customer is stored and linked to the cart", async () => {
    const checkout = {
      id: 35790246801,
      token: "c1-abc",
      email: "mia.k@example.de",
      total_price: "12.00",
      updated_at: "2026-11-29T10:00:00+01:00",
      line_items: [{ sku: "CAP", quantity: 1, price: "12.00" }],
      customer: {
        id: 7320198734777,
        email: "mia.k@example.de",
        first_name: "Mia",
        last_name: "Krause",
        updated_at: "2026-11-29T09:00:00+01:00",
      },
    };
    expect(await applied("shopify", shopify, "checkouts/create", checkout)).toMatchObject({
      result: "applied",
      reason: expect.stringContaining("Created its customer."),
    });
    expect(await getEntity(shop.tenant.id, "cart", "35790246801")).toMatchObject({
      customerId: "7320198734777",
    });
    expect(await getEntity(shop.tenant.id, "customer", "7320198734777")).toMatchObject({ firstName: "Mia" });
  });
});

describe("a WooCommerce order's customer", () => {
  const order = storeFixture("woocommerce", "order");

  test("by the store's id: created, then updated by the next order, never duplicated", async () => {
    expect(await applied("woocommerce", woo, "order.created", order)).toMatchObject({
      result: "applied",
      reason: expect.stringContaining("Created its customer."),
    });
    expect(await getEntity(shop.tenant.id, "customer", "418")).toMatchObject({
      email: "jonas.weber@example.de",
      firstName: "Jonas",
      lastName: "Weber",
      phone: "+49 221 998877",
      city: "Köln",
    });
    const billing = order.billing as Record<string, unknown>;
    const next = {
      ...order,
      id: 7315,
      number: "7315",
      order_key: "wc_order_next",
      date_modified_gmt: "2026-12-02T10:00:00",
      billing: { ...billing, phone: "+49 221 111111" },
    };
    expect(await applied("woocommerce", woo, "order.created", next)).toMatchObject({
      reason: expect.stringContaining("Updated its customer."),
    });
    expect(await customersWithEmail("jonas.weber@example.de")).toHaveLength(1);
    expect(await getEntity(shop.tenant.id, "customer", "418")).toMatchObject({ phone: "+49 221 111111" });
  });

  test("a guest (customer 0) is found by billing email, else kept as a new customer", async () => {
    const billing = order.billing as Record<string, unknown>;
    const returning = {
      ...order,
      id: 7316,
      number: "7316",
      order_key: "wc_order_guest1",
      customer_id: 0,
      date_modified_gmt: "2026-12-03T10:00:00",
    };
    await applied("woocommerce", woo, "order.created", returning);
    // The same person, by email: the order is linked to customer 418.
    expect(await getEntity(shop.tenant.id, "order", "7316")).toMatchObject({ customerId: "418" });
    expect(await customersWithEmail("jonas.weber@example.de")).toHaveLength(1);

    const stranger = {
      ...returning,
      id: 7317,
      number: "7317",
      order_key: "wc_order_guest2",
      billing: { ...billing, first_name: "Ana", last_name: "Silva", email: "Ana.Silva@example.pt" },
    };
    await applied("woocommerce", woo, "order.created", stranger);
    const [guest] = await customersWithEmail("ana.silva@example.pt");
    expect(guest?.id).toMatch(/^guest-[0-9a-f]{32}$/);
    expect(await getEntity(shop.tenant.id, "order", "7317")).toMatchObject({ customerId: guest!.id });
    // Her second order finds the same record.
    await applied("woocommerce", woo, "order.created", {
      ...stranger,
      id: 7318,
      number: "7318",
      order_key: "wc_order_guest3",
    });
    expect(await customersWithEmail("ana.silva@example.pt")).toHaveLength(1);
    expect(await getEntity(shop.tenant.id, "order", "7318")).toMatchObject({ customerId: guest!.id });
  });
});

/** Posts a test delivery as `sendTestDelivery` does, to the endpoint itself. */
async function postTest(connection: Connection, runAutomations: boolean) {
  const { topic, raw, headers } = testDeliveryRequest("shopify", connection.secret, { runAutomations });
  const reply = await connectRoute(
    new Request(`http://test.local/api/connect/shopify/${connection.token}`, {
      method: "POST",
      headers,
      body: raw,
    }),
    { params: Promise.resolve({ platform: "shopify", token: connection.token }) },
  );
  const body = (await reply.json()) as { id: string };
  expect(reply.status).toBe(200);
  const delivery = await processedDelivery(shop.keys.viewer, connection, body.id);
  return { topic, body: JSON.parse(raw) as Record<string, unknown>, delivery };
}

describe("a test delivery", () => {
  //  order_created ──▶ add_tag(flow-ran)
  let flowId: string;
  let store: Connection;

  beforeAll(async () => {
    store = await connectStore(shop.keys.editor, "shopify");
    flowId = await publishFlow(
      shop.keys.editor,
      "Tag new orders",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "flow-ran" } },
        ],
        [["t", "tag"]],
      ),
    );
  });

  test("starts no automation, and its order says it is a test", async () => {
    const before = await runCount(flowId);
    const { body, delivery } = await postTest(store, false);
    expect(delivery).toMatchObject({
      result: "applied",
      reason: expect.stringContaining("A test delivery: no automation ran."),
    });
    // Give the worker a moment to (wrongly) start something.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runCount(flowId)).toBe(before);
    const stored = await getEntity(shop.tenant.id, "order", String(body.id));
    expect(stored.tags).toContain("tillflow-test");
    expect(stored.tags).not.toContain("flow-ran");
    expect(stored.notes.map((n) => n.body)).toEqual([expect.stringContaining("Test order from Tillflow")]);
    // The marker is read, not kept among what the store sent.
    expect(stored.attributes).not.toHaveProperty(TEST_MARKER);
    // Its customer is a record, tagged as a test's too.
    const customer = await getEntity(shop.tenant.id, "customer", String(stored.customerId));
    expect(customer).toMatchObject({ email: "test.customer@example.com", firstName: "Test" });
    expect(customer.tags).toContain("tillflow-test");
  });

  test("with “Also run my automations”, its automations run", async () => {
    const { body, delivery } = await postTest(store, true);
    expect(delivery.reason).toContain("A test delivery: automations ran as asked.");
    const runs = await getDb()
      .select({ id: automationRuns.id })
      .from(automationRuns)
      .where(and(eq(automationRuns.automationId, flowId), eq(automationRuns.entityId, String(body.id))));
    expect(runs).toHaveLength(1);
    await settledRuns(flowId, (await runCount(flowId)) as number);
    expect((await getEntity(shop.tenant.id, "order", String(body.id))).tags).toContain("flow-ran");
  });

  test("the marker cannot be forged: a header does nothing, and a body changed after signing is a 401", async () => {
    const order = { ...storeFixture("shopify", "order"), id: 5829374659001 };
    const raw = JSON.stringify(order);
    const headers = {
      "content-type": "application/json",
      "X-Shopify-Topic": "orders/create",
      "X-Shopify-Hmac-Sha256": platformSignature(store.secret, raw),
      "X-Shopify-Webhook-Id": crypto.randomUUID(),
      "X-Tillflow-Test": "1",
    };
    const post = (body: string) =>
      connectRoute(
        new Request(`http://test.local/api/connect/shopify/${store.token}`, {
          method: "POST",
          headers,
          body,
        }),
        { params: Promise.resolve({ platform: "shopify", token: store.token }) },
      );
    const forged = await post(JSON.stringify({ ...order, [TEST_MARKER]: { run_automations: false } }));
    expect(forged.status).toBe(401);
    const real = await post(raw);
    expect(real.status).toBe(200);
    const { id } = (await real.json()) as { id: string };
    expect(await processedDelivery(shop.keys.viewer, store, id)).toMatchObject({ result: "applied" });
    const runs = await getDb()
      .select({ id: automationRuns.id })
      .from(automationRuns)
      .where(and(eq(automationRuns.automationId, flowId), eq(automationRuns.entityId, "5829374659001")));
    expect(runs).toHaveLength(1);
    expect((await listedDeliveries(shop.keys.viewer, store)).length).toBeGreaterThan(0);
  });
});
