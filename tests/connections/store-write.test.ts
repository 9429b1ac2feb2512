import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import {
  DELETE as deleteConnectionRoute,
  GET as getConnectionRoute,
} from "@/app/api/v1/connections/[id]/route";
import { GET as listConnectionsRoute, POST as createConnectionRoute } from "@/app/api/v1/connections/route";
import { GET as subscriptionsRoute } from "@/app/api/v1/connections/[id]/subscriptions/route";
import { POST as repairRoute } from "@/app/api/v1/connections/[id]/subscriptions/repair/route";
import { PUT as writesRoute } from "@/app/api/v1/connections/[id]/writes/route";
import { GET as credentialsRoute } from "@/app/api/v1/credentials/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { SHOPIFY_TOPICS } from "@/lib/connections/shopify";
import { WOOCOMMERCE_TOPICS } from "@/lib/connections/woocommerce";
import { SHOPIFY_API_VERSION } from "@/lib/connections/store-api";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { startFakeStore, type FakeStore } from "@/tests/helpers/fake-store";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Issue 52: the store, both ways. A local server answers as Shopify's GraphQL Admin API and
 * WooCommerce's REST API v3 document (tests/helpers/fake-store.ts; STORE_API_BASE_URL points the
 * clients at it), and the real worker runs the store steps:
 *
 *   order_paid ──▶ total > 500 ──true──▶ store_add_tags(vip)
 *
 * Checked against the documentation:
 * - GraphQL Admin API endpoint, version in the path and the `X-Shopify-Access-Token` header:
 *   https://shopify.dev/docs/api/admin-graphql#endpoints, https://shopify.dev/docs/api/usage/authentication
 * - tagsAdd / tagsRemove (`id`, `tags`, `node`, `userErrors`):
 *   https://shopify.dev/docs/api/admin-graphql/latest/mutations/tagsAdd
 * - orderUpdate (`OrderInput.note`, `metafields`): https://shopify.dev/docs/api/admin-graphql/latest/mutations/orderUpdate
 * - fulfillmentOrderHold (`FulfillmentOrderHoldInput.handle`, DUPLICATE_FULFILLMENT_HOLD_HANDLE):
 *   https://shopify.dev/docs/api/admin-graphql/latest/mutations/fulfillmentOrderHold
 * - metafieldsSet: https://shopify.dev/docs/api/admin-graphql/latest/mutations/metafieldsSet
 * - webhookSubscriptionCreate (`uri`, 2025-10) / webhookSubscriptionDelete / webhookSubscriptions:
 *   https://shopify.dev/docs/api/admin-graphql/2025-10/mutations/webhookSubscriptionCreate
 * - cost-based throttling (`extensions.cost.throttleStatus`, THROTTLED):
 *   https://shopify.dev/docs/api/usage/limits#graphql-admin-api-rate-limits
 * - WooCommerce REST API v3 webhooks (`topic`, `delivery_url`, `secret`, `status`; delete with
 *   `force=true`): https://developer.woocommerce.com/docs/apis/rest-api/v3/webhooks/,
 *   https://woocommerce.github.io/woocommerce-rest-api-docs/#webhooks
 * - WooCommerce REST API v3 orders, order notes, Basic auth over https:
 *   https://woocommerce.github.io/woocommerce-rest-api-docs/#orders,
 *   https://woocommerce.github.io/woocommerce-rest-api-docs/#order-notes,
 *   https://woocommerce.github.io/woocommerce-rest-api-docs/#authentication-over-https
 */

const TOKEN = `shpat_${crypto.randomBytes(16).toString("hex")}`;
const WOO_KEY = `ck_${crypto.randomBytes(12).toString("hex")}:cs_${crypto.randomBytes(12).toString("hex")}`;
const SHOP = "nordlicht-goods.myshopify.com";

let shop: TestShop;
let fake: FakeStore;
/** Everything the process wrote to stdout and stderr while the file ran (the logs). */
const written: string[] = [];
const restore: (() => void)[] = [];

beforeAll(async () => {
  shop = await createShop();
  fake = await startFakeStore({ token: TOKEN });
  process.env.STORE_API_BASE_URL = fake.url;
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return original(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = original));
  }
});
afterAll(async () => {
  for (const undo of restore) undo();
  delete process.env.STORE_API_BASE_URL;
  await fake.close();
});
workerForFile();

/** Every API reply and every row of the runs, as text: searched for the token. */
const replies: string[] = [];

async function connectShopify(name = `shopify-${crypto.randomBytes(3).toString("hex")}`) {
  const made = await call<{
    id: string;
    url: string;
    writes: { credentialId: string; host: string; last4: string } | null;
    subscriptions?: { items: { topic: string; state: string }[]; error?: string };
  }>(createConnectionRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: {
      platform: "shopify",
      name,
      secret: crypto.randomBytes(16).toString("hex"),
      shopDomain: SHOP,
      adminToken: TOKEN,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  replies.push(JSON.stringify(made.body));
  return made.body;
}

async function pay(id: string, total: number, number = `#${id}`) {
  const order = { number, status: "pending", total, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", id, order, "test");
  await upsertEntity(shop.tenant.id, "order", id, { ...order, status: "paid" }, "test");
}

async function steps(runId: string) {
  return getDb().execute<{
    node_id: string;
    status: string;
    error: string | null;
    output: Record<string, unknown> | null;
    reason: string | null;
  }>(
    sql`select node_id, status, error, output, reason from automation_run_steps where run_id = ${runId} order by leg, position`,
  );
}

async function recorded(runId: string): Promise<string> {
  const rows = await getDb().execute<{ row: string }>(sql`
    select row_to_json(r)::text as row from automation_runs r where id = ${runId}
    union all select row_to_json(s)::text from automation_run_steps s where run_id = ${runId}
    union all select row_to_json(d)::text from action_deliveries d where run_id = ${runId}`);
  const reply = await call<unknown>(runRoute, {
    path: `/api/v1/runs/${runId}`,
    key: shop.keys.viewer,
    params: { id: runId },
  });
  return [...rows.map((r) => r.row), JSON.stringify(reply.body)].join("\n");
}

//  order_paid ──▶ total > 500 ──true──▶ <step>
function paidOver500(step: { type: string; params: Record<string, unknown> }) {
  return flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 500 } },
      { id: "store", ...step },
    ],
    [
      ["t", "big"],
      ["big", "store", "true"],
    ],
  );
}

/** Pauses a test's automation, so the orders the next tests pay start none of its runs. */
async function pause(id: string) {
  const paused = await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id } });
  expect(paused.status, JSON.stringify(paused.body)).toBe(200);
}

let connection: Awaited<ReturnType<typeof connectShopify>>;
let wooConnection: { id: string; url: string; writes: { credentialId: string; host: string } };

describe("connect in one step", () => {
  test("a token registers a subscription for every topic Tillflow reads, pointing at the connection's URL", async () => {
    connection = await connectShopify();
    expect(connection.writes).toMatchObject({ host: SHOP, last4: TOKEN.slice(-4) });
    expect(connection.subscriptions?.error).toBeUndefined();
    expect(connection.subscriptions?.items.map((i) => [i.topic, i.state])).toEqual(
      SHOPIFY_TOPICS.map((topic) => [topic, "active"]),
    );
    const creates = fake.shopify.filter((r) => r.field === "webhookSubscriptionCreate");
    expect(creates).toHaveLength(SHOPIFY_TOPICS.length);
    for (const request of fake.shopify) {
      expect(request.path).toBe(`/admin/api/${SHOPIFY_API_VERSION}/graphql.json`);
      expect(request.token).toBe(TOKEN);
    }
    expect(creates[0]!.operation).toBe("mutation StoreWebhookSubscriptionCreate");
    expect(creates.map((c) => c.variables.topic)).toContain("ORDERS_PAID");
    expect(creates.map((c) => c.variables.topic)).toContain("INVENTORY_LEVELS_UPDATE");
    for (const c of creates)
      expect(c.variables.webhookSubscription).toEqual({ uri: connection.url, format: "JSON" });
    expect([...fake.subscriptions.values()].every((s) => s.uri === connection.url)).toBe(true);
  });

  test("the list says which topics are missing, and Repair creates them again", async () => {
    const paid = [...fake.subscriptions].find(([, s]) => s.topic === "ORDERS_PAID")![0];
    fake.subscriptions.delete(paid);
    const listed = await call<{ items: { topic: string; state: string }[] }>(subscriptionsRoute, {
      key: shop.keys.viewer,
      params: { id: connection.id },
    });
    expect(listed.status).toBe(200);
    replies.push(JSON.stringify(listed.body));
    expect(listed.body.items.filter((i) => i.state === "missing")).toEqual([
      { topic: "orders/paid", state: "missing" },
    ]);
    const repaired = await call<{ created: number; items: { state: string }[] }>(repairRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: connection.id },
    });
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    replies.push(JSON.stringify(repaired.body));
    expect(repaired.body.created).toBe(1);
    expect(repaired.body.items.every((i) => i.state === "active")).toBe(true);
    expect([...fake.subscriptions.values()].filter((s) => s.topic === "ORDERS_PAID")).toHaveLength(1);
  });

  test("a connection without a token keeps the manual path: its subscriptions are a 409 that says what to do", async () => {
    const manual = await call<{ id: string; writes: unknown }>(createConnectionRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { platform: "shopify", name: "manual", secret: crypto.randomBytes(16).toString("hex") },
    });
    expect(manual.status).toBe(201);
    expect(manual.body.writes).toBeNull();
    const listed = await call<{ error: { message: string } }>(subscriptionsRoute, {
      key: shop.keys.viewer,
      params: { id: manual.body.id },
    });
    expect(listed.status).toBe(409);
    expect(listed.body.error.message).toContain("Settings → Notifications → Webhooks");
  });

  test("a token for another domain than myshopify.com is refused with a sentence", async () => {
    const refused = await call<{ error: { message: string } }>(createConnectionRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: {
        platform: "shopify",
        name: "elsewhere",
        secret: crypto.randomBytes(16).toString("hex"),
        shopDomain: "evil.example.com",
        adminToken: TOKEN,
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain("my-shop.myshopify.com");
  });
});

describe("store steps", () => {
  test("order paid over €500 → add tag 'vip' in Shopify: tagsAdd with the order's gid, and Tillflow's record takes the store's tags", async () => {
    fake.orders.set("1001", { tags: ["wholesale"], note: "", metafields: new Map(), fulfillmentOrders: [] });
    const id = await publishFlow(
      shop.keys.editor,
      "VIP in Shopify",
      paidOver500({
        type: "auto.action.store_add_tags",
        params: { credentialId: connection.writes!.credentialId, platform: "shopify", tags: "vip" },
      }),
    );
    await pay("1001", 620);
    await pay("1002", 80);
    const runs = await settledRuns(id, 2, 15_000);
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
    const adds = fake.shopify.filter((r) => r.field === "tagsAdd");
    expect(adds).toHaveLength(1);
    expect(adds[0]!.operation).toBe("mutation StoreTagsAdd");
    expect(adds[0]!.variables).toEqual({ id: "gid://shopify/Order/1001", tags: ["vip"] });
    expect(fake.orders.get("1001")!.tags).toEqual(["wholesale", "vip"]);
    const [step] = (await steps(runs[0]!.id)).filter((s) => s.node_id === "store");
    expect(step).toMatchObject({
      status: "success",
      output: { platform: "shopify", recordId: "1001", tags: ["wholesale", "vip"] },
    });
    const [row] = await getDb().execute<{ tags: string[] }>(
      sql`select tags from entities where tenant_id = ${shop.tenant.id} and domain = 'order' and id = '1001'`,
    );
    expect(row!.tags).toEqual(["wholesale", "vip"]);
    replies.push(await recorded(runs[0]!.id));
    await pause(id);
  });

  test("a throttled answer waits for the bucket (cost − available) ÷ restore rate, then succeeds", async () => {
    fake.throttle = 1;
    const before = fake.shopify.filter((r) => r.field === "tagsRemove").length;
    const id = await publishFlow(
      shop.keys.editor,
      "Untag in Shopify",
      paidOver500({
        type: "auto.action.store_remove_tags",
        params: { credentialId: connection.writes!.credentialId, platform: "shopify", tags: "wholesale" },
      }),
    );
    await pay("1003", 900);
    const [run] = await settledRuns(id, 1, 15_000);
    expect(run!.status).toBe("succeeded");
    // The throttled call and the one after the wait: 50 points missing at 100 a second, 500 ms.
    expect(fake.shopify.filter((r) => r.field === "tagsRemove").length - before).toBe(2);
    const [step] = (await steps(run!.id)).filter((s) => s.node_id === "store");
    expect(step!.status).toBe("success");
    expect(step!.output).toMatchObject({ waitedMs: 500 });
    replies.push(await recorded(run!.id));
    await pause(id);
  });

  test("userErrors fail the step with Shopify's own words", async () => {
    fake.refuse.set("tagsAdd", "Tags can't be longer than 255 characters");
    const id = await publishFlow(
      shop.keys.editor,
      "Refused in Shopify",
      paidOver500({
        type: "auto.action.store_add_tags",
        params: { credentialId: connection.writes!.credentialId, platform: "shopify", tags: "gold" },
      }),
    );
    await pay("1004", 700);
    const [run] = await settledRuns(id, 1, 15_000);
    expect(run!.status).toBe("failed");
    const [step] = (await steps(run!.id)).filter((s) => s.node_id === "store");
    expect(step!.status).toBe("failed");
    expect(step!.error).toBe("Shopify refused it: Tags can't be longer than 255 characters.");
    replies.push(await recorded(run!.id));
    await pause(id);
  });

  test("a note, a hold with the step's handle, its release and a metafield; the dry run says each and writes nothing", async () => {
    const credentialId = connection.writes!.credentialId;
    fake.orders.set("2001", {
      tags: [],
      note: "Gift wrap",
      metafields: new Map(),
      fulfillmentOrders: [{ id: "gid://shopify/FulfillmentOrder/20011", status: "OPEN", holds: [] }],
    });
    const graph = flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "note",
          type: "auto.action.store_add_order_note",
          params: { credentialId, platform: "shopify", note: "Paid {entity.total | money}: check by hand" },
        },
        {
          id: "hold",
          type: "auto.action.store_hold_fulfillment",
          params: {
            credentialId,
            platform: "shopify",
            reason: "HIGH_RISK_OF_FRAUD",
            reasonNotes: "Checked by Tillflow",
          },
        },
        {
          id: "meta",
          type: "auto.action.store_set_metafield",
          params: { credentialId, platform: "shopify", namespace: "custom", key: "risk", value: "checked" },
        },
      ],
      [
        ["t", "note"],
        ["note", "hold"],
        ["hold", "meta"],
      ],
    );
    const created = await call<{ id: string }>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Hold in Shopify", graph },
    });
    expect(created.status).toBe(201);
    await upsertEntity(
      shop.tenant.id,
      "order",
      "2001",
      { number: "#2001", status: "paid", total: 640, currency: "EUR" },
      "test",
    );
    const calls = fake.shopify.length;
    const dry = await call<{ steps: { lines?: string[]; text?: string }[] }>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
      body: { entityId: "2001" },
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const said = JSON.stringify(dry.body);
    expect(said).toContain("Would add the note “Paid €640.00: check by hand” to order #2001 in Shopify.");
    expect(said).toContain(
      "Would hold the open fulfillment orders of order #2001 in Shopify (reason: high risk of fraud).",
    );
    expect(said).toContain("Would set custom.risk to “checked” on order #2001 in Shopify.");
    expect(fake.shopify.length).toBe(calls);

    const published = await call(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
      body: {},
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    await upsertEntity(
      shop.tenant.id,
      "order",
      "2001",
      { number: "#2001", status: "pending", total: 640, currency: "EUR" },
      "test",
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "2001",
      { number: "#2001", status: "paid", total: 640, currency: "EUR" },
      "test",
    );
    const [run] = await settledRuns(created.body.id, 1, 60_000);
    expect(run!.status, JSON.stringify(await steps(run!.id))).toBe("succeeded");
    const order = fake.orders.get("2001")!;
    expect(order.note).toBe("Gift wrap\nPaid €640.00: check by hand");
    expect(JSON.parse(order.metafields.get("tillflow.writes")!)).toEqual([`${run!.id}:note:1`]);
    expect(order.fulfillmentOrders[0]!.status).toBe("ON_HOLD");
    expect(order.fulfillmentOrders[0]!.holds[0]!.handle).toMatch(/^tillflow-[0-9a-f]{40}$/);
    const hold = fake.shopify.find((r) => r.field === "fulfillmentOrderHold")!;
    expect(hold.variables).toMatchObject({
      id: "gid://shopify/FulfillmentOrder/20011",
      fulfillmentHold: {
        reason: "HIGH_RISK_OF_FRAUD",
        reasonNotes: "Checked by Tillflow",
        notifyMerchant: false,
      },
    });
    expect(order.metafields.get("custom.risk")).toBe("checked");
    const meta = fake.shopify.find((r) => r.field === "metafieldsSet")!;
    expect(meta.variables).toEqual({
      metafields: [
        {
          ownerId: "gid://shopify/Order/2001",
          namespace: "custom",
          key: "risk",
          type: "single_line_text_field",
          value: "checked",
        },
      ],
    });
    replies.push(await recorded(run!.id));

    // Release: the hold goes (the hold's flow paused first, so paying again starts only this one).
    await pause(created.body.id);
    const release = await publishFlow(
      shop.keys.editor,
      "Release in Shopify",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "release",
            type: "auto.action.store_release_hold",
            params: { credentialId, platform: "shopify" },
          },
        ],
        [["t", "release"]],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "2001",
      { number: "#2001", status: "pending", total: 640, currency: "EUR" },
      "test",
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "2001",
      { number: "#2001", status: "paid", total: 640, currency: "EUR" },
      "test",
    );
    const [released] = await settledRuns(release, 1, 15_000);
    expect(released!.status).toBe("succeeded");
    expect(order.fulfillmentOrders[0]!.status).toBe("OPEN");
    await pause(release);
  });

  test("a step without a store is a ready issue: publishing says to choose one", async () => {
    const created = await call<{ id: string }>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: {
        name: "No store",
        graph: paidOver500({
          type: "auto.action.store_add_tags",
          params: { credentialId: "", platform: "shopify", tags: "vip" },
        }),
      },
    });
    expect(created.status).toBe(201);
    const published = await call<{ error: { message: string } }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
      body: {},
    });
    expect(published.status).toBe(422);
    expect(JSON.stringify(published.body)).toContain("choose the store to write to");
  });

  test("WooCommerce: tags as the order's meta data and a note, with Basic auth over the store's REST API v3", async () => {
    const made = await call<{ id: string; url: string; writes: { credentialId: string; host: string } }>(
      createConnectionRoute,
      {
        method: "POST",
        key: shop.keys.editor,
        body: {
          platform: "woocommerce",
          name: "woo",
          secret: crypto.randomBytes(16).toString("hex"),
          storeUrl: "https://shop.example.test",
          restKey: WOO_KEY,
        },
      },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    replies.push(JSON.stringify(made.body));
    expect(made.body.writes.host).toBe("shop.example.test");
    wooConnection = made.body;
    const credentialId = made.body.writes.credentialId;
    const id = await publishFlow(
      shop.keys.editor,
      "VIP in WooCommerce",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "tags",
            type: "auto.action.store_add_tags",
            params: { credentialId, platform: "woocommerce", tags: "vip, gold" },
          },
          {
            id: "note",
            type: "auto.action.store_add_order_note",
            params: { credentialId, platform: "woocommerce", note: "VIP order" },
          },
        ],
        [
          ["t", "tags"],
          ["tags", "note"],
        ],
      ),
    );
    await pay("3001", 510);
    const [run] = await settledRuns(id, 1, 15_000);
    expect(run!.status, JSON.stringify(await steps(run!.id))).toBe("succeeded");
    const basic = `Basic ${Buffer.from(WOO_KEY).toString("base64")}`;
    expect(fake.woo.every((r) => r.authorization === basic)).toBe(true);
    // The steps' calls (connecting made the store's webhooks first: see "WooCommerce webhooks").
    const orderCalls = fake.woo.filter((r) => r.path.startsWith("/wp-json/wc/v3/orders"));
    expect(orderCalls.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /wp-json/wc/v3/orders/3001",
      "PUT /wp-json/wc/v3/orders/3001",
      "GET /wp-json/wc/v3/orders/3001/notes",
      "POST /wp-json/wc/v3/orders/3001/notes",
    ]);
    expect(orderCalls[1]!.body).toEqual({ meta_data: [{ key: "tillflow_tags", value: "vip, gold" }] });
    expect(orderCalls[3]!.body).toEqual({ note: "VIP order", customer_note: false });
    replies.push(await recorded(run!.id));
  });

  test("disconnecting deletes the subscriptions in Shopify and the token with the connection", async () => {
    const gone = await call<{ deleted: boolean; webhooks: { removed: number } }>(deleteConnectionRoute, {
      method: "DELETE",
      key: shop.keys.editor,
      params: { id: connection.id },
    });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body.webhooks.removed).toBe(SHOPIFY_TOPICS.length);
    expect(fake.subscriptions.size).toBe(0);
    expect(fake.shopify.filter((r) => r.field === "webhookSubscriptionDelete")).toHaveLength(
      SHOPIFY_TOPICS.length,
    );
    const [left] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from credentials where id = ${connection.writes!.credentialId}`,
    );
    expect(left!.n).toBe(0);
  });

  test("the token and the REST key are in no API reply, run step, delivery or log line", async () => {
    for (const route of [listConnectionsRoute, credentialsRoute]) {
      const reply = await call<unknown>(route, { key: shop.keys.admin });
      replies.push(JSON.stringify(reply.body));
    }
    const one = await call<unknown>(getConnectionRoute, {
      key: shop.keys.admin,
      params: { id: connection.id },
    });
    replies.push(JSON.stringify(one.body));
    const [rows] = await getDb().execute<{ all: string }>(sql`
      select coalesce(string_agg(t, E'\\n'), '') as all from (
        select row_to_json(s)::text as t from automation_run_steps s where tenant_id = ${shop.tenant.id}
        union all select row_to_json(d)::text from action_deliveries d where tenant_id = ${shop.tenant.id}
        union all select row_to_json(a)::text from audit_events a where tenant_id = ${shop.tenant.id}) x`);
    const everything = [...replies, rows!.all, written.join("")].join("\n");
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of [TOKEN, WOO_KEY, WOO_KEY.split(":")[1]!, Buffer.from(WOO_KEY).toString("base64")])
      expect(everything).not.toContain(secret);
  });
});

type Subscriptions = { items: { topic: string; state: string; id?: string }[]; error?: string };
type Made = {
  id: string;
  url: string;
  credential: { id: string; last4: string };
  writes: { credentialId: string; host: string; last4: string } | null;
  subscriptions?: Subscriptions;
};

const WOO_SECRET = `wc_secret_${crypto.randomBytes(8).toString("hex")}`;
const APP_SECRET = `app_secret_${crypto.randomBytes(8).toString("hex")}`;
const TOKEN_2 = `shpat_${crypto.randomBytes(16).toString("hex")}`;
const WOO_KEY_2 = `ck_${crypto.randomBytes(12).toString("hex")}:cs_${crypto.randomBytes(12).toString("hex")}`;

describe("WooCommerce webhooks", () => {
  test("a REST key registers a webhook per topic Tillflow reads, to the connection's URL, signed with its secret; listed, repaired, removed", async () => {
    const made = await call<Made>(createConnectionRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: {
        platform: "woocommerce",
        name: "woo-hooks",
        secret: WOO_SECRET,
        storeUrl: "https://hooks.example.test",
        restKey: WOO_KEY,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    replies.push(JSON.stringify(made.body));
    expect(made.body.subscriptions?.error).toBeUndefined();
    expect(made.body.subscriptions?.items.map((i) => [i.topic, i.state])).toEqual(
      WOOCOMMERCE_TOPICS.map((topic) => [topic, "active"]),
    );
    const ours = () => [...fake.wooWebhooks].filter(([, w]) => w.delivery_url === made.body.url);
    expect(
      ours()
        .map(([, w]) => w.topic)
        .sort(),
    ).toEqual([...WOOCOMMERCE_TOPICS].sort());
    for (const [, w] of ours()) {
      expect(w).toMatchObject({ secret: WOO_SECRET, status: "active", delivery_url: made.body.url });
      expect(w.name).toBe(`Tillflow · ${w.topic}`);
    }
    const basic = `Basic ${Buffer.from(WOO_KEY).toString("base64")}`;
    const hookCalls = fake.woo.filter((r) => r.path.startsWith("/wp-json/wc/v3/webhooks"));
    expect(hookCalls.every((r) => r.authorization === basic)).toBe(true);
    const creates = hookCalls.filter(
      (r) => r.method === "POST" && (r.body as { delivery_url?: string }).delivery_url === made.body.url,
    );
    expect(creates).toHaveLength(WOOCOMMERCE_TOPICS.length);
    expect(creates[0]!.body).toEqual({
      name: `Tillflow · ${WOOCOMMERCE_TOPICS[0]}`,
      topic: WOOCOMMERCE_TOPICS[0],
      delivery_url: made.body.url,
      secret: WOO_SECRET,
      status: "active",
    });

    // WooCommerce disabled one (failed deliveries) and the merchant deleted another.
    const [disabledId, disabled] = ours().find(([, w]) => w.topic === "order.updated")!;
    disabled.status = "disabled";
    const [deletedId] = ours().find(([, w]) => w.topic === "customer.created")!;
    fake.wooWebhooks.delete(deletedId);
    const listed = await call<Subscriptions>(subscriptionsRoute, {
      key: shop.keys.viewer,
      params: { id: made.body.id },
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.items.filter((i) => i.state !== "active")).toEqual([
      { topic: "order.updated", state: "paused", id: disabledId },
      { topic: "customer.created", state: "missing" },
    ]);
    const repaired = await call<Subscriptions & { created: number }>(repairRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: made.body.id },
    });
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    expect(repaired.body.created).toBe(2);
    expect(repaired.body.items.every((i) => i.state === "active")).toBe(true);
    expect(fake.wooWebhooks.get(disabledId)!.status).toBe("active");
    expect(fake.woo.at(-2)).toMatchObject({
      method: "PUT",
      path: `/wp-json/wc/v3/webhooks/${disabledId}`,
      body: { status: "active" },
    });
    expect(ours()).toHaveLength(WOOCOMMERCE_TOPICS.length);

    const gone = await call<{ webhooks: { removed: number; error?: string } }>(deleteConnectionRoute, {
      method: "DELETE",
      key: shop.keys.editor,
      params: { id: made.body.id },
    });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body.webhooks).toEqual({ removed: WOOCOMMERCE_TOPICS.length });
    expect(ours()).toHaveLength(0);
    const deletes = fake.woo.filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(WOOCOMMERCE_TOPICS.length);
    for (const d of deletes) expect(d.path).toMatch(/^\/wp-json\/wc\/v3\/webhooks\/\d+\?force=true$/);
    // The other WooCommerce connection's webhooks stay.
    expect([...fake.wooWebhooks.values()].filter((w) => w.delivery_url === wooConnection.url)).toHaveLength(
      WOOCOMMERCE_TOPICS.length,
    );
  });
});

describe("a token on an existing connection", () => {
  test("a Shopify store connected by hand takes a token later: webhooks registered with the app's secret, audited, editors only", async () => {
    const manual = await call<Made>(createConnectionRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { platform: "shopify", name: "later", secret: crypto.randomBytes(16).toString("hex") },
    });
    expect(manual.status).toBe(201);
    expect(manual.body.writes).toBeNull();
    const body = { shopDomain: SHOP, adminToken: TOKEN, secret: APP_SECRET };

    const viewer = await call<{ error: { message: string } }>(writesRoute, {
      method: "PUT",
      key: shop.keys.viewer,
      params: { id: manual.body.id },
      body,
    });
    expect(viewer.status).toBe(403);
    replies.push(JSON.stringify(viewer.body));

    const withoutSecret = await call<{ error: { message: string } }>(writesRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: manual.body.id },
      body: { shopDomain: SHOP, adminToken: TOKEN },
    });
    expect(withoutSecret.status).toBe(422);
    expect(withoutSecret.body.error.message).toContain("the app's API secret key");

    const notMyshopify = await call<{ error: { message: string } }>(writesRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: manual.body.id },
      body: { ...body, shopDomain: "evil.example.com" },
    });
    expect(notMyshopify.status).toBe(422);
    expect(notMyshopify.body.error.message).toContain("my-shop.myshopify.com");

    const added = await call<Made>(writesRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: manual.body.id },
      body,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    replies.push(JSON.stringify(added.body));
    expect(added.body.writes).toMatchObject({ host: SHOP, last4: TOKEN.slice(-4) });
    // Shopify signs an app's subscriptions with its API secret key: now the connection's secret.
    expect(added.body.credential).toMatchObject({
      id: manual.body.credential.id,
      last4: APP_SECRET.slice(-4),
    });
    expect(added.body.subscriptions?.items.map((i) => [i.topic, i.state])).toEqual(
      SHOPIFY_TOPICS.map((topic) => [topic, "active"]),
    );
    expect([...fake.subscriptions.values()].filter((s) => s.uri === manual.body.url)).toHaveLength(
      SHOPIFY_TOPICS.length,
    );
    const [audit] = await getDb().execute<{ detail: Record<string, unknown> }>(
      sql`select detail from audit_events where tenant_id = ${shop.tenant.id} and action = 'connection.writes_set' and subject_id = ${manual.body.id}`,
    );
    expect(audit!.detail).toMatchObject({ host: SHOP, replaced: false, secretChanged: true });

    // A new token for the same shop (the old one was revoked): the same credential, flows keep it.
    fake.token = TOKEN_2;
    try {
      const replaced = await call<Made>(writesRoute, {
        method: "PUT",
        key: shop.keys.editor,
        params: { id: manual.body.id },
        body: { shopDomain: SHOP, adminToken: TOKEN_2 },
      });
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      replies.push(JSON.stringify(replaced.body));
      expect(replaced.body.writes).toMatchObject({
        credentialId: added.body.writes!.credentialId,
        host: SHOP,
        last4: TOKEN_2.slice(-4),
      });
      expect(replaced.body.credential.last4).toBe(APP_SECRET.slice(-4));
      expect(replaced.body.subscriptions?.items.every((i) => i.state === "active")).toBe(true);
      expect(fake.shopify.at(-1)!.token).toBe(TOKEN_2);

      const elsewhere = await call<{ error: { message: string } }>(writesRoute, {
        method: "PUT",
        key: shop.keys.editor,
        params: { id: manual.body.id },
        body: { shopDomain: "other-goods.myshopify.com", adminToken: TOKEN_2 },
      });
      expect(elsewhere.status).toBe(409);
      expect(elsewhere.body.error.message).toBe(
        `This connection writes to ${SHOP}; a token for other-goods.myshopify.com needs a connection of its own.`,
      );
      const gone = await call(deleteConnectionRoute, {
        method: "DELETE",
        key: shop.keys.editor,
        params: { id: manual.body.id },
      });
      expect(gone.status).toBe(200);
      expect([...fake.subscriptions.values()].filter((s) => s.uri === manual.body.url)).toHaveLength(0);
    } finally {
      fake.token = TOKEN;
    }
  });

  test("a WooCommerce store connected by hand takes a REST key later: its webhooks are made with the connection's secret", async () => {
    const manual = await call<Made>(createConnectionRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { platform: "woocommerce", name: "woo-later", secret: WOO_SECRET },
    });
    expect(manual.status).toBe(201);
    const wrongKind = await call<{ error: { message: string } }>(writesRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: manual.body.id },
      body: { shopDomain: SHOP, adminToken: TOKEN },
    });
    expect(wrongKind.status).toBe(422);
    expect(wrongKind.body.error.message).toContain("WooCommerce uses a REST key");
    const added = await call<Made>(writesRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: manual.body.id },
      body: { storeUrl: "https://later.example.test", restKey: WOO_KEY_2 },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    replies.push(JSON.stringify(added.body));
    expect(added.body.writes).toMatchObject({ host: "later.example.test", last4: WOO_KEY_2.slice(-4) });
    expect(added.body.subscriptions?.items.every((i) => i.state === "active")).toBe(true);
    const made = [...fake.wooWebhooks.values()].filter((w) => w.delivery_url === manual.body.url);
    expect(made).toHaveLength(WOOCOMMERCE_TOPICS.length);
    expect(made.every((w) => w.secret === WOO_SECRET)).toBe(true);
    const basic = `Basic ${Buffer.from(WOO_KEY_2).toString("base64")}`;
    expect(fake.woo.at(-1)!.authorization).toBe(basic);
  });

  test("the new tokens, keys and secrets are in no reply, audit row or log line", async () => {
    const listed = await call<unknown>(listConnectionsRoute, { key: shop.keys.admin });
    replies.push(JSON.stringify(listed.body));
    const [rows] = await getDb().execute<{ all: string }>(sql`
      select coalesce(string_agg(row_to_json(a)::text, E'\\n'), '') as all
      from audit_events a where tenant_id = ${shop.tenant.id}`);
    const everything = [...replies, rows!.all, written.join("")].join("\n");
    expect(everything).toContain("connection.writes_set");
    for (const secret of [TOKEN, TOKEN_2, WOO_KEY_2, WOO_SECRET, APP_SECRET, WOO_KEY_2.split(":")[1]!])
      expect(everything).not.toContain(secret);
  });
});
