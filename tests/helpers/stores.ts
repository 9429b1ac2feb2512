import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { POST as connectRoute } from "@/app/api/connect/[platform]/[token]/route";
import { GET as deliveriesRoute } from "@/app/api/v1/connections/[id]/deliveries/route";
import { POST as createConnectionRoute } from "@/app/api/v1/connections/route";
import { expect } from "vitest";
import { call } from "./fixtures";
import { until } from "./poll";

/** A sample payload from tests/fixtures/<platform>/<name>.json, as a fresh object. */
export function storeFixture(platform: "shopify" | "woocommerce", name: string): Record<string, unknown> {
  const file = path.join(import.meta.dirname, "..", "fixtures", platform, `${name}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

/** The platforms' signature, written here from their docs: base64 HMAC-SHA256 of the raw body. */
export const platformSignature = (secret: string, body: string) =>
  crypto.createHmac("sha256", secret).update(body, "utf8").digest("base64");

export interface Connection {
  id: string;
  url: string;
  token: string;
  secret: string;
}

/** Connects a store through `POST /api/v1/connections` with a fresh secret. */
export async function connectStore(
  key: string,
  platform: "shopify" | "woocommerce",
  name = `${platform}-${crypto.randomBytes(3).toString("hex")}`,
): Promise<Connection> {
  const secret = crypto.randomBytes(24).toString("hex");
  const made = await call<{ id: string; url: string }>(createConnectionRoute, {
    method: "POST",
    key,
    body: { platform, name, secret },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const token = made.body.url.split("/").at(-1)!;
  return { id: made.body.id, url: made.body.url, token, secret };
}

/**
 * Posts a body to a connection's URL with the platform's headers, as the platform would. Shopify's
 * `X-Shopify-Webhook-Id` is always sent (a fresh one) unless `deliveryId` is null, which sends no id
 * header at all.
 */
export async function deliver(
  platform: "shopify" | "woocommerce",
  connection: Connection,
  options: {
    topic?: string;
    body: unknown;
    deliveryId?: string | null;
    signature?: string | null;
    raw?: string;
  },
): Promise<{ status: number; body: { id?: string; result?: string; error?: { message: string } } }> {
  const raw = options.raw ?? JSON.stringify(options.body);
  const signature =
    options.signature === undefined ? platformSignature(connection.secret, raw) : options.signature;
  const headers = new Headers({ "content-type": "application/json" });
  if (platform === "shopify") {
    if (options.topic) headers.set("X-Shopify-Topic", options.topic);
    if (signature) headers.set("X-Shopify-Hmac-Sha256", signature);
    headers.set("X-Shopify-Shop-Domain", "nordlicht-goods.myshopify.com");
    headers.set("X-Shopify-API-Version", "2026-10");
    if (options.deliveryId !== null) headers.set("X-Shopify-Webhook-Id", crypto.randomUUID());
    if (options.deliveryId) headers.set("X-Shopify-Event-Id", options.deliveryId);
  } else {
    if (options.topic) headers.set("X-WC-Webhook-Topic", options.topic);
    if (signature) headers.set("X-WC-Webhook-Signature", signature);
    headers.set("X-WC-Webhook-Source", "https://shop.example.de/");
    if (options.deliveryId) headers.set("X-WC-Webhook-Delivery-ID", options.deliveryId);
  }
  const req = new Request(`http://test.local/api/connect/${platform}/${connection.token}`, {
    method: "POST",
    headers,
    body: raw,
  });
  const res = await connectRoute(req, { params: Promise.resolve({ platform, token: connection.token }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** A delivery as `GET /api/v1/connections/:id/deliveries` lists it. */
export interface ListedDelivery {
  id: string;
  topic: string;
  result: string;
  reason?: string;
  domain?: string;
  entityId?: string;
}

/** A connection's deliveries, newest first, as `key` (a viewer's, say) reads them. */
export async function listedDeliveries(key: string, connection: Connection): Promise<ListedDelivery[]> {
  const listed = await call<{ items: ListedDelivery[] }>(deliveriesRoute, {
    key,
    params: { id: connection.id },
  });
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.items;
}

/** Waits until the worker has processed the delivery, and returns it as the list shows it. */
export async function processedDelivery(key: string, connection: Connection, deliveryId: string) {
  return until(
    async () => (await listedDeliveries(key, connection)).find((d) => d.id === deliveryId),
    (d) => d !== undefined && d.result !== "received",
    { timeoutMs: 15_000, what: `delivery ${deliveryId} to be processed` },
  ).then((d) => d!);
}
