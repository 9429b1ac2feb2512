import "server-only";
import { shopifyGraphql, StoreApiError, userErrorSentence, wooRest, type UserError } from "./store-api";
import { SHOPIFY_TOPICS } from "./shopify";
import { WOOCOMMERCE_TOPICS } from "./woocommerce";

/**
 * Connect in one step (issue 52): with a shop's Admin API token, Tillflow registers the webhook
 * subscriptions it reads (every topic `shopify.ts` maps) pointing at the connection's own URL,
 * lists them with their state, creates the missing ones again ("Repair"), and deletes them when
 * the store is disconnected. Shopify signs these deliveries with the app's API secret key, which is
 * the connection's webhook secret.
 *
 * The GraphQL Admin API's `webhookSubscriptions` query and `webhookSubscriptionCreate` /
 * `webhookSubscriptionDelete` mutations, with the `uri` field (API version 2026-10).
 *
 * WooCommerce with its REST key: the same, through its REST API v3 webhooks
 * (`GET|POST /wp-json/wc/v3/webhooks`, `PUT|DELETE …/webhooks/<id>`), each webhook signed with the
 * connection's own secret. A WooCommerce webhook can also be `paused` (WooCommerce disables one
 * after repeated failed deliveries); Repair sets it active again.
 */

export type SubscriptionState = "active" | "missing" | "paused";

export interface SubscriptionView {
  /** The topic as Shopify's webhooks name it: `orders/paid`. */
  topic: string;
  state: SubscriptionState;
  /** Shopify's id, when it exists. */
  id?: string;
}

export interface SubscriptionsView {
  items: SubscriptionView[];
  /** Why the list could not be read from Shopify just now (then every item is listed as missing). */
  error?: string;
}

/** `orders/paid` as Shopify's GraphQL enum names it: `ORDERS_PAID`. */
export function topicEnum(topic: string): string {
  return topic.replace(/\//g, "_").toUpperCase();
}

const LIST = `query StoreWebhookSubscriptions($first: Int!) {
  webhookSubscriptions(first: $first) { nodes { id topic uri } }
}`;

const CREATE = `mutation StoreWebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

const DELETE = `mutation StoreWebhookSubscriptionDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } }
}`;

export interface ShopAccess {
  platform?: "shopify";
  shop: string;
  token: string;
  /** Where the subscriptions deliver: the connection's URL. */
  uri: string;
}

interface Existing {
  id: string;
  topic: string;
  uri: string;
}

async function existing(access: ShopAccess): Promise<Existing[]> {
  const { data } = await shopifyGraphql(access.shop, access.token, LIST, { first: 100 });
  const list = data.webhookSubscriptions as { nodes?: unknown } | undefined;
  const nodes = Array.isArray(list?.nodes) ? (list.nodes as Record<string, unknown>[]) : [];
  return nodes.map((n) => ({ id: String(n.id), topic: String(n.topic), uri: String(n.uri ?? "") }));
}

/** Each topic Tillflow reads, with the subscription that delivers it to this connection, if any. */
export async function listSubscriptions(access: ShopAccess): Promise<SubscriptionsView> {
  try {
    const ours = (await existing(access)).filter((s) => s.uri === access.uri);
    return {
      items: SHOPIFY_TOPICS.map((topic) => {
        const found = ours.find((s) => s.topic === topicEnum(topic));
        return found ? { topic, state: "active", id: found.id } : { topic, state: "missing" };
      }),
    };
  } catch (error) {
    return {
      items: SHOPIFY_TOPICS.map((topic) => ({ topic, state: "missing" })),
      error: error instanceof StoreApiError ? error.message : "Shopify could not be asked just now.",
    };
  }
}

/**
 * Creates the subscriptions that are missing (all of them for a new connection): what is listed
 * after, and the sentence of a topic Shopify refused, if one was.
 */
export async function repairSubscriptions(
  access: ShopAccess,
): Promise<SubscriptionsView & { created: number }> {
  const before = await listSubscriptions(access);
  if (before.error) return { ...before, created: 0 };
  let created = 0;
  const refused: string[] = [];
  for (const item of before.items.filter((i) => i.state === "missing")) {
    try {
      const { data } = await shopifyGraphql(access.shop, access.token, CREATE, {
        topic: topicEnum(item.topic),
        webhookSubscription: { uri: access.uri, format: "JSON" },
      });
      const result = (data.webhookSubscriptionCreate ?? {}) as {
        webhookSubscription?: { id?: string } | null;
        userErrors?: UserError[];
      };
      if (result.userErrors && result.userErrors.length > 0) {
        refused.push(`${item.topic}: ${userErrorSentence(result.userErrors)}`);
        continue;
      }
      item.state = "active";
      if (result.webhookSubscription?.id) item.id = result.webhookSubscription.id;
      created++;
    } catch (error) {
      refused.push(`${item.topic}: ${error instanceof StoreApiError ? error.message : "not created"}`);
    }
  }
  return {
    items: before.items,
    created,
    ...(refused.length > 0 ? { error: `Some topics were not subscribed. ${refused.join(" ")}` } : {}),
  };
}

/** Deletes every subscription delivering to this connection: how many went, and what stayed. */
export async function removeSubscriptions(access: ShopAccess): Promise<{ removed: number; error?: string }> {
  let removed = 0;
  try {
    const ours = (await existing(access)).filter((s) => s.uri === access.uri);
    for (const subscription of ours) {
      const { data } = await shopifyGraphql(access.shop, access.token, DELETE, { id: subscription.id });
      const result = (data.webhookSubscriptionDelete ?? {}) as { userErrors?: UserError[] };
      if (result.userErrors && result.userErrors.length > 0)
        return { removed, error: userErrorSentence(result.userErrors) };
      removed++;
    }
    return { removed };
  } catch (error) {
    return {
      removed,
      error: `${error instanceof StoreApiError ? error.message : "Shopify could not be asked."} Delete the remaining webhooks in the Shopify admin.`,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// WooCommerce: https://developer.woocommerce.com/docs/apis/rest-api/v3/webhooks/

export interface WooAccess {
  platform: "woocommerce";
  /** The store's host: the REST key's one host. */
  host: string;
  /** The REST key, `ck_…:cs_…`. */
  key: string;
  /** The connection's webhook secret: WooCommerce signs each delivery with it. */
  secret: string;
  /** Where the webhooks deliver: the connection's URL. */
  uri: string;
}

export type StoreAccess = (ShopAccess & { platform: "shopify" }) | WooAccess;

interface WooWebhook {
  id: string;
  topic: string;
  status: string;
  uri: string;
}

/** A store has a few webhooks; 10 pages of 100 is far past any we would make. */
const WOO_PAGES = 10;

async function wooExisting(access: WooAccess): Promise<WooWebhook[]> {
  const found: WooWebhook[] = [];
  for (let page = 1; page <= WOO_PAGES; page++) {
    const answer = await wooRest(access.host, access.key, "GET", `/webhooks?per_page=100&page=${page}`);
    const list = Array.isArray(answer) ? (answer as Record<string, unknown>[]) : [];
    for (const w of list)
      found.push({
        id: String(w.id),
        topic: String(w.topic ?? ""),
        status: String(w.status ?? ""),
        uri: String(w.delivery_url ?? ""),
      });
    if (list.length < 100) break;
  }
  return found;
}

function wooItems(ours: WooWebhook[]): SubscriptionView[] {
  return WOOCOMMERCE_TOPICS.map((topic) => {
    const all = ours.filter((w) => w.topic === topic);
    const found = all.find((w) => w.status === "active") ?? all[0];
    if (!found) return { topic, state: "missing" };
    return { topic, state: found.status === "active" ? "active" : "paused", id: found.id };
  });
}

async function listWooWebhooks(access: WooAccess): Promise<SubscriptionsView> {
  try {
    return { items: wooItems((await wooExisting(access)).filter((w) => w.uri === access.uri)) };
  } catch (error) {
    return {
      items: WOOCOMMERCE_TOPICS.map((topic) => ({ topic, state: "missing" })),
      error: error instanceof StoreApiError ? error.message : "WooCommerce could not be asked just now.",
    };
  }
}

async function repairWooWebhooks(access: WooAccess): Promise<SubscriptionsView & { created: number }> {
  const before = await listWooWebhooks(access);
  if (before.error) return { ...before, created: 0 };
  let created = 0;
  const refused: string[] = [];
  for (const item of before.items.filter((i) => i.state !== "active")) {
    try {
      const answer =
        item.state === "paused" && item.id
          ? await wooRest(access.host, access.key, "PUT", `/webhooks/${encodeURIComponent(item.id)}`, {
              status: "active",
            })
          : await wooRest(access.host, access.key, "POST", "/webhooks", {
              name: `Tillflow · ${item.topic}`,
              topic: item.topic,
              delivery_url: access.uri,
              secret: access.secret,
              status: "active",
            });
      const id = (answer as { id?: unknown } | null)?.id;
      item.state = "active";
      if (id !== undefined) item.id = String(id);
      created++;
    } catch (error) {
      refused.push(`${item.topic}: ${error instanceof StoreApiError ? error.message : "not created"}`);
    }
  }
  return {
    items: before.items,
    created,
    ...(refused.length > 0 ? { error: `Some topics were not subscribed. ${refused.join(" ")}` } : {}),
  };
}

async function removeWooWebhooks(access: WooAccess): Promise<{ removed: number; error?: string }> {
  let removed = 0;
  try {
    const ours = (await wooExisting(access)).filter((w) => w.uri === access.uri);
    for (const webhook of ours) {
      // Webhooks cannot be trashed: `force=true` deletes it for good (without it, a 501).
      await wooRest(
        access.host,
        access.key,
        "DELETE",
        `/webhooks/${encodeURIComponent(webhook.id)}?force=true`,
      );
      removed++;
    }
    return { removed };
  } catch (error) {
    return {
      removed,
      error: `${error instanceof StoreApiError ? error.message : "WooCommerce could not be asked."} Delete the remaining webhooks in WooCommerce → Settings → Advanced → Webhooks.`,
    };
  }
}

/** A connection's webhooks in its store, each topic with its state. */
export function listStoreSubscriptions(access: StoreAccess): Promise<SubscriptionsView> {
  return access.platform === "woocommerce" ? listWooWebhooks(access) : listSubscriptions(access);
}

/** Creates (or, WooCommerce, sets active again) the webhooks that do not deliver here. */
export function repairStoreSubscriptions(
  access: StoreAccess,
): Promise<SubscriptionsView & { created: number }> {
  return access.platform === "woocommerce" ? repairWooWebhooks(access) : repairSubscriptions(access);
}

/** Deletes the webhooks delivering to this connection in its store. */
export function removeStoreSubscriptions(access: StoreAccess): Promise<{ removed: number; error?: string }> {
  return access.platform === "woocommerce" ? removeWooWebhooks(access) : removeSubscriptions(access);
}
