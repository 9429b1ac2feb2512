import { z } from "zod";
import { createConnectionInput, listDeliveriesQuery } from "@/lib/connections/store";
import { connectionShape, subscriptionsShape, deliveryShape } from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";

/** Store connections. */
export const connectionsEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/connections",
    summary: "List the shop's store connections",
    description: "Each connected store with its webhook URL; the secret is never sent back, to any role.",
    tag: "Store connections",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every connection of the shop.",
      schema: z.object({ items: z.array(connectionShape), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: "/api/v1/connections",
    summary: "Connect a Shopify or WooCommerce store",
    description:
      "Connect in one step (Shopify): with `shopDomain` and an Admin API `adminToken`, Tillflow also registers a webhook subscription for every topic it reads, pointing at the connection's URL, and the reply lists them (`subscriptions`); the token becomes a write credential for the store actions. WooCommerce: `storeUrl` and `restKey` (`ck_…:cs_…`) let the store actions write. Without them, stores the platform's webhook secret as a credential and returns the URL to paste into the platform's webhook settings. Deliveries to it are checked against the secret (`X-Shopify-Hmac-Sha256` / `X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body), answered 200 at once and applied by the worker through the same upsert as `PUT /api/v1/entities/{domain}/{id}`, so the same events and flows start.",
    tag: "Store connections",
    role: "editor",
    body: createConnectionInput,
    example: {
      platform: "shopify",
      name: "nordlicht-goods.myshopify.com",
      secret: "a1b2c3d4e5f6a7b8c9d0",
      shopDomain: "nordlicht-goods.myshopify.com",
      adminToken: "shpat_0123456789abcdef0123456789abcdef",
    },
    ok: {
      status: 201,
      description: "The connection, with its URL (never its secret).",
      schema: connectionShape,
    },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}",
    summary: "Read one store connection",
    tag: "Store connections",
    role: "viewer",
    ok: { status: 200, description: "The connection.", schema: connectionShape },
  },
  {
    method: "DELETE",
    path: "/api/v1/connections/{id}",
    summary: "Disconnect a store",
    description:
      "Its URL stops answering (404); its secret, its write credential and its deliveries are deleted. Records it sent stay. With a Shopify token, the webhook subscriptions Tillflow registered are deleted in Shopify first (`webhooks: { removed, error? }`).",
    tag: "Store connections",
    role: "editor",
    ok: { status: 200, description: "`{ id, deleted: true, webhooks? }`." },
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}/subscriptions",
    summary: "List a Shopify connection's webhook subscriptions",
    description:
      "Each topic Tillflow reads, `active` when a subscription delivers it to this connection's URL, else `missing` — read from Shopify with the connection's Admin API token. A connection without a token is a 409.",
    tag: "Store connections",
    role: "viewer",
    ok: { status: 200, description: "The topics and their state.", schema: subscriptionsShape },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/connections/{id}/subscriptions/repair",
    summary: "Create a Shopify connection's missing webhook subscriptions",
    description: "Creates a subscription for each missing topic, pointing at the connection's URL (audited).",
    tag: "Store connections",
    role: "editor",
    ok: {
      status: 200,
      description: "The topics after, and how many were created.",
      schema: subscriptionsShape.extend({ created: z.number().int() }),
    },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}/deliveries",
    summary: "List a connection's deliveries",
    description:
      "Every webhook the store posted, newest first: its topic, the record it touched, and its result — applied, duplicate, stale or refused — with why.",
    tag: "Store connections",
    role: "viewer",
    query: listDeliveriesQuery,
    ok: {
      status: 200,
      description: "A page of deliveries.",
      schema: z.object({ items: z.array(deliveryShape), nextCursor: z.string().nullable() }),
    },
  },
];
