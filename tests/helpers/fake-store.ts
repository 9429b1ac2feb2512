import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A local stand-in for Shopify's GraphQL Admin API and WooCommerce's REST API v3, answering as
 * their documentation shows (issue 52). Used by tests/connections/store-write.test.ts and
 * e2e/store-write.spec.ts, with STORE_API_BASE_URL pointing at it.
 *
 * - Shopify: `POST /admin/api/<version>/graphql.json`, `X-Shopify-Access-Token`; answers carry
 *   `extensions.cost.throttleStatus`; a throttled answer is HTTP 200 with
 *   `errors[].extensions.code = "THROTTLED"`; a mutation refused is `data.<mutation>.userErrors`.
 *   https://shopify.dev/docs/api/usage/limits#graphql-admin-api-rate-limits
 *   https://shopify.dev/docs/api/admin-graphql/latest/mutations/tagsAdd
 * - WooCommerce: `/wp-json/wc/v3/orders/<id>` (GET, PUT), `/orders/<id>/notes` (GET, POST), HTTP
 *   Basic auth with the consumer key and secret.
 *   https://woocommerce.github.io/woocommerce-rest-api-docs/#orders
 * - WooCommerce webhooks: `GET /webhooks?per_page=&page=` (a list), `POST /webhooks` with `name`,
 *   `topic`, `delivery_url`, `secret`, `status` (201, the webhook without its secret; a topic it does
 *   not know is a 400 `woocommerce_rest_shop_webhook_invalid_topic`), `PUT /webhooks/<id>` (its
 *   `status`), `DELETE /webhooks/<id>?force=true` (webhooks cannot be trashed: without `force`, a
 *   501 `woocommerce_rest_trash_not_supported`).
 *   https://developer.woocommerce.com/docs/apis/rest-api/v3/webhooks/,
 *   https://woocommerce.github.io/woocommerce-rest-api-docs/#webhooks
 */

export interface ShopifyRequest {
  path: string;
  token: string | undefined;
  /** The root field called: `tagsAdd`, `orderUpdate`, `webhookSubscriptions`, … */
  field: string;
  /** The document's operation keyword and name: `mutation StoreTagsAdd`. */
  operation: string;
  query: string;
  variables: Record<string, unknown>;
}

export interface WooRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

interface FakeOrder {
  tags: string[];
  note: string;
  metafields: Map<string, string>;
  fulfillmentOrders: { id: string; status: string; holds: { id: string; handle: string | null }[] }[];
}

export interface WooWebhook {
  name: string;
  topic: string;
  delivery_url: string;
  secret: string;
  status: "active" | "paused" | "disabled";
}

interface WooOrder {
  status: string;
  meta: { key: string; value: string }[];
  notes: string[];
}

export interface FakeStore {
  url: string;
  version: string;
  token: string;
  shopify: ShopifyRequest[];
  woo: WooRequest[];
  orders: Map<string, FakeOrder>;
  customers: Map<string, FakeOrder>;
  subscriptions: Map<string, { topic: string; uri: string }>;
  wooOrders: Map<string, WooOrder>;
  /** WooCommerce's webhooks, by id. */
  wooWebhooks: Map<string, WooWebhook>;
  /** Answer THROTTLED to this many next calls (each with `currentlyAvailable: 0`). */
  throttle: number;
  /** Root fields whose next call is refused with this `userErrors` message. */
  refuse: Map<string, string>;
  /** Root fields whose next call is applied and then left unanswered (a worker killed mid-call). */
  hang: Set<string>;
  /** Answers left hanging, so the test can end them. */
  hanging: http.ServerResponse[];
  close(): Promise<void>;
}

const COST = (available: number) => ({
  requestedQueryCost: 10,
  actualQueryCost: available > 0 ? 10 : null,
  throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 },
});

function order(store: FakeStore, id: string): FakeOrder {
  let found = store.orders.get(id);
  if (!found) {
    found = {
      tags: [],
      note: "",
      metafields: new Map(),
      fulfillmentOrders: [{ id: `gid://shopify/FulfillmentOrder/${id}1`, status: "OPEN", holds: [] }],
    };
    store.orders.set(id, found);
  }
  return found;
}

function customer(store: FakeStore, id: string): FakeOrder {
  let found = store.customers.get(id);
  if (!found) {
    found = { tags: [], note: "", metafields: new Map(), fulfillmentOrders: [] };
    store.customers.set(id, found);
  }
  return found;
}

/** The record a gid names: `gid://shopify/Order/1001`. */
function owner(store: FakeStore, gid: unknown): FakeOrder | null {
  const match = /^gid:\/\/shopify\/(Order|Customer)\/(\d+)$/.exec(String(gid));
  if (!match) return null;
  return match[1] === "Order" ? order(store, match[2]!) : customer(store, match[2]!);
}

const FIELDS = [
  "tagsAdd",
  "tagsRemove",
  "orderUpdate",
  "fulfillmentOrderHold",
  "fulfillmentOrderReleaseHold",
  "metafieldsSet",
  "webhookSubscriptionCreate",
  "webhookSubscriptionDelete",
  "webhookSubscriptions",
  "order",
];

function rootField(query: string): string {
  const body = query.slice(query.indexOf("{") + 1);
  const match = /^\s*(\w+)/.exec(body);
  return match && FIELDS.includes(match[1]!) ? match[1]! : "unknown";
}

let counter = 1;

function shopifyData(store: FakeStore, field: string, v: Record<string, unknown>): Record<string, unknown> {
  const refusal = store.refuse.get(field);
  if (refusal !== undefined) {
    store.refuse.delete(field);
    return { [field]: { userErrors: [{ field: ["tags"], message: refusal }] } };
  }
  switch (field) {
    case "tagsAdd":
    case "tagsRemove": {
      const record = owner(store, v.id);
      if (!record)
        return { [field]: { node: null, userErrors: [{ field: ["id"], message: "Resource not found" }] } };
      const tags = (v.tags as string[]) ?? [];
      record.tags =
        field === "tagsAdd"
          ? [...new Set([...record.tags, ...tags])]
          : record.tags.filter((t) => !tags.includes(t));
      return { [field]: { node: { id: v.id, tags: [...record.tags] }, userErrors: [] } };
    }
    case "order": {
      const record = owner(store, v.id);
      if (!record) return { order: null };
      return {
        order: {
          id: v.id,
          note: record.note || null,
          metafield: record.metafields.has("tillflow.writes")
            ? { value: record.metafields.get("tillflow.writes") }
            : null,
          fulfillmentOrders: {
            nodes: record.fulfillmentOrders.map((fo) => ({
              id: fo.id,
              status: fo.status,
              fulfillmentHolds: fo.holds.map((h) => ({ id: h.id, handle: h.handle })),
            })),
          },
        },
      };
    }
    case "orderUpdate": {
      const input = v.input as {
        id: string;
        note?: string;
        metafields?: { namespace: string; key: string; value: string }[];
      };
      const record = owner(store, input.id);
      if (!record)
        return {
          orderUpdate: { order: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] },
        };
      if (input.note !== undefined) record.note = input.note;
      for (const m of input.metafields ?? []) record.metafields.set(`${m.namespace}.${m.key}`, m.value);
      return { orderUpdate: { order: { id: input.id, note: record.note }, userErrors: [] } };
    }
    case "fulfillmentOrderHold": {
      const hold = v.fulfillmentHold as { handle?: string; reason: string };
      for (const record of store.orders.values())
        for (const fo of record.fulfillmentOrders)
          if (fo.id === v.id) {
            if (hold.handle && fo.holds.some((h) => h.handle === hold.handle))
              return {
                fulfillmentOrderHold: {
                  fulfillmentOrder: null,
                  userErrors: [
                    {
                      field: ["fulfillmentHold", "handle"],
                      message:
                        "The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.",
                      code: "DUPLICATE_FULFILLMENT_HOLD_HANDLE",
                    },
                  ],
                },
              };
            fo.holds.push({ id: `gid://shopify/FulfillmentHold/${counter++}`, handle: hold.handle ?? null });
            fo.status = "ON_HOLD";
            return {
              fulfillmentOrderHold: { fulfillmentOrder: { id: fo.id, status: fo.status }, userErrors: [] },
            };
          }
      return {
        fulfillmentOrderHold: {
          fulfillmentOrder: null,
          userErrors: [
            {
              field: ["id"],
              message: "Fulfillment order does not exist.",
              code: "FULFILLMENT_ORDER_NOT_FOUND",
            },
          ],
        },
      };
    }
    case "fulfillmentOrderReleaseHold": {
      for (const record of store.orders.values())
        for (const fo of record.fulfillmentOrders)
          if (fo.id === v.id) {
            fo.holds = [];
            fo.status = "OPEN";
            return {
              fulfillmentOrderReleaseHold: {
                fulfillmentOrder: { id: fo.id, status: fo.status },
                userErrors: [],
              },
            };
          }
      return {
        fulfillmentOrderReleaseHold: {
          fulfillmentOrder: null,
          userErrors: [{ field: ["id"], message: "Fulfillment order does not exist." }],
        },
      };
    }
    case "metafieldsSet": {
      const list = v.metafields as { ownerId: string; namespace: string; key: string; value: string }[];
      const out = [];
      for (const m of list) {
        const record = owner(store, m.ownerId);
        if (!record)
          return {
            metafieldsSet: {
              metafields: [],
              userErrors: [{ field: ["metafields", "0", "ownerId"], message: "Owner does not exist." }],
            },
          };
        record.metafields.set(`${m.namespace}.${m.key}`, m.value);
        out.push({ namespace: m.namespace, key: m.key, value: m.value });
      }
      return { metafieldsSet: { metafields: out, userErrors: [] } };
    }
    case "webhookSubscriptions":
      return {
        webhookSubscriptions: {
          nodes: [...store.subscriptions].map(([id, s]) => ({ id, topic: s.topic, uri: s.uri })),
        },
      };
    case "webhookSubscriptionCreate": {
      const id = `gid://shopify/WebhookSubscription/${counter++}`;
      const input = v.webhookSubscription as { uri: string };
      store.subscriptions.set(id, { topic: String(v.topic), uri: input.uri });
      return {
        webhookSubscriptionCreate: {
          webhookSubscription: { id, topic: v.topic, uri: input.uri },
          userErrors: [],
        },
      };
    }
    case "webhookSubscriptionDelete":
      store.subscriptions.delete(String(v.id));
      return { webhookSubscriptionDelete: { deletedWebhookSubscriptionId: v.id, userErrors: [] } };
    default:
      return {};
  }
}

function wooOrder(store: FakeStore, id: string): WooOrder {
  let found = store.wooOrders.get(id);
  if (!found) {
    found = { status: "processing", meta: [], notes: [] };
    store.wooOrders.set(id, found);
  }
  return found;
}

/** The topics WooCommerce knows: its core resources' created/updated/deleted/restored. */
const WOO_TOPIC = /^(coupon|customer|order|product)\.(created|updated|deleted|restored)$/;

function webhookView(id: string, w: WooWebhook) {
  const [resource, event] = w.topic.split(".");
  return {
    id: Number(id),
    name: w.name,
    status: w.status,
    topic: w.topic,
    resource,
    event,
    hooks: [],
    delivery_url: w.delivery_url,
    date_created: "2026-01-01T00:00:00",
    date_modified: "2026-01-01T00:00:00",
  };
}

function wooWebhooks(
  store: FakeStore,
  method: string,
  path: string,
  body: unknown,
): { status: number; body: unknown } | null {
  const url = new URL(path, "http://fake");
  const one = /^\/wp-json\/wc\/v3\/webhooks\/(\d+)$/.exec(url.pathname);
  if (url.pathname === "/wp-json/wc/v3/webhooks") {
    if (method === "POST") {
      const input = body as Partial<WooWebhook>;
      if (!input.topic || !WOO_TOPIC.test(input.topic))
        return {
          status: 400,
          body: {
            code: "woocommerce_rest_shop_webhook_invalid_topic",
            message: "Webhook topic is required and must be valid.",
            data: { status: 400 },
          },
        };
      if (!input.delivery_url || !/^https?:\/\//.test(input.delivery_url))
        return {
          status: 400,
          body: {
            code: "woocommerce_rest_shop_webhook_invalid_delivery_url",
            message: "Webhook delivery URL must be a valid URL starting with http:// or https://.",
            data: { status: 400 },
          },
        };
      const id = String(counter++);
      const made: WooWebhook = {
        name: input.name ?? "Webhook",
        topic: input.topic,
        delivery_url: input.delivery_url,
        secret: input.secret ?? "",
        status: input.status ?? "active",
      };
      store.wooWebhooks.set(id, made);
      return { status: 201, body: webhookView(id, made) };
    }
    const perPage = Number(url.searchParams.get("per_page") ?? 10);
    const page = Number(url.searchParams.get("page") ?? 1);
    const all = [...store.wooWebhooks].map(([id, w]) => webhookView(id, w));
    return { status: 200, body: all.slice((page - 1) * perPage, page * perPage) };
  }
  if (!one) return null;
  const webhook = store.wooWebhooks.get(one[1]!);
  if (method === "DELETE" && url.searchParams.get("force") !== "true")
    return {
      status: 501,
      body: {
        code: "woocommerce_rest_trash_not_supported",
        message: "Webhooks do not support trashing.",
        data: { status: 501 },
      },
    };
  if (!webhook)
    return {
      status: 404,
      body: {
        code: "woocommerce_rest_shop_webhook_invalid_id",
        message: "Invalid ID.",
        data: { status: 404 },
      },
    };
  if (method === "DELETE") {
    store.wooWebhooks.delete(one[1]!);
    return { status: 200, body: webhookView(one[1]!, webhook) };
  }
  if (method === "PUT") {
    const change = body as Partial<WooWebhook>;
    if (change.status) webhook.status = change.status;
  }
  return { status: 200, body: webhookView(one[1]!, webhook) };
}

function wooAnswer(
  store: FakeStore,
  method: string,
  path: string,
  body: unknown,
): { status: number; body: unknown } {
  const hooks = wooWebhooks(store, method, path, body);
  if (hooks) return hooks;
  const notes = /^\/wp-json\/wc\/v3\/orders\/(\d+)\/notes$/.exec(path);
  if (notes) {
    const record = wooOrder(store, notes[1]!);
    if (method === "POST") {
      record.notes.push(String((body as { note: string }).note));
      return {
        status: 201,
        body: { id: record.notes.length, note: record.notes.at(-1), customer_note: false },
      };
    }
    return { status: 200, body: record.notes.map((note, i) => ({ id: i + 1, note })) };
  }
  const one = /^\/wp-json\/wc\/v3\/(orders|customers)\/(\d+)$/.exec(path);
  if (!one)
    return {
      status: 404,
      body: { code: "rest_no_route", message: "No route was found matching the URL and request method." },
    };
  const record = wooOrder(store, `${one[1]}:${one[2]}`);
  if (method === "PUT") {
    const change = body as { status?: string; meta_data?: { key: string; value: string }[] };
    if (change.status) record.status = change.status;
    for (const m of change.meta_data ?? []) {
      const at = record.meta.findIndex((x) => x.key === m.key);
      if (at >= 0) record.meta[at] = m;
      else record.meta.push(m);
    }
  }
  return {
    status: 200,
    body: {
      id: Number(one[2]),
      status: record.status,
      meta_data: record.meta.map((m, i) => ({ id: i + 1, ...m })),
    },
  };
}

/** Starts the fake on 127.0.0.1 (`port` 0: any free one). */
export async function startFakeStore(options: {
  token: string;
  port?: number;
  version?: string;
}): Promise<FakeStore> {
  const store: FakeStore = {
    url: "",
    version: options.version ?? "2026-10",
    token: options.token,
    shopify: [],
    woo: [],
    orders: new Map(),
    customers: new Map(),
    subscriptions: new Map(),
    wooOrders: new Map(),
    wooWebhooks: new Map(),
    throttle: 0,
    refuse: new Map(),
    hang: new Set(),
    hanging: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const text = Buffer.concat(chunks).toString("utf8");
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (path.startsWith("/wp-json/")) {
        const body: unknown = text ? JSON.parse(text) : undefined;
        store.woo.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body });
        const answer = wooAnswer(store, req.method ?? "GET", path, body);
        send(answer.status, answer.body);
        return;
      }
      const { query, variables } = JSON.parse(text || "{}") as {
        query: string;
        variables?: Record<string, unknown>;
      };
      const field = rootField(query ?? "");
      const token = req.headers["x-shopify-access-token"] as string | undefined;
      store.shopify.push({
        path,
        token,
        field,
        operation: /^\s*((?:query|mutation)\s+\w+)/.exec(query ?? "")?.[1] ?? "",
        query,
        variables: variables ?? {},
      });
      if (path !== `/admin/api/${store.version}/graphql.json`) {
        send(404, { errors: "Not Found" });
        return;
      }
      if (token !== store.token) {
        send(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
        return;
      }
      if (store.throttle > 0) {
        store.throttle--;
        send(200, {
          errors: [
            {
              message: "Throttled",
              extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
            },
          ],
          extensions: { cost: { ...COST(0), requestedQueryCost: 50 } },
        });
        return;
      }
      const data = shopifyData(store, field, variables ?? {});
      if (store.hang.has(field)) {
        // Applied, then never answered: the caller is killed before it hears back.
        store.hang.delete(field);
        store.hanging.push(res);
        return;
      }
      send(200, { data, extensions: { cost: COST(1990) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  store.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store.close = () =>
    new Promise((resolve) => {
      for (const res of store.hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return store;
}
