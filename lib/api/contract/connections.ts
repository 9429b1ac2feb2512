import { z } from "zod";
import { connectionWritesInput, createConnectionInput, listDeliveriesQuery } from "@/lib/connections/store";
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
      "Connect in one step: with `shopDomain` and an Admin API `adminToken` (Shopify), or `storeUrl` and a REST key `restKey` (`ck_…:cs_…`, WooCommerce), Tillflow also registers a webhook for every topic it reads, pointing at the connection's URL, and the reply lists them (`subscriptions`); the token or key becomes a write credential for the store actions. Without them, stores the platform's webhook secret as a credential and returns the URL to paste into the platform's webhook settings. Deliveries to it are checked against the secret (`X-Shopify-Hmac-Sha256` / `X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body), answered 200 at once and applied by the worker through the same upsert as `PUT /api/v1/entities/{domain}/{id}`, so the same events and flows start.",
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
      "Its URL stops answering (404); its secret, its write credential and its deliveries are deleted. Records it sent stay. With a Shopify token or a WooCommerce key, the webhooks Tillflow registered are deleted in the store first (`webhooks: { removed, error? }`).",
    tag: "Store connections",
    role: "editor",
    ok: { status: 200, description: "`{ id, deleted: true, webhooks? }`." },
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}/subscriptions",
    summary: "List a connection's webhooks in its store",
    description:
      "Each topic Tillflow reads, `active` when a webhook delivers it to this connection's URL, `paused` when WooCommerce paused or disabled it, else `missing` — read from the store with the connection's Admin API token or REST key. A connection without one is a 409.",
    tag: "Store connections",
    role: "viewer",
    ok: { status: 200, description: "The topics and their state.", schema: subscriptionsShape },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/connections/{id}/subscriptions/repair",
    summary: "Create a connection's missing webhooks in its store",
    description:
      "Creates a webhook for each missing topic, pointing at the connection's URL, and sets a paused WooCommerce one active again (audited).",
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
    method: "PUT",
    path: "/api/v1/connections/{id}/writes",
    summary: "Add or replace a connection's Admin API token or REST key",
    description:
      "For a store connected without one (webhooks only) or whose token was revoked: Shopify takes `shopDomain` and `adminToken`, and, the first time, `secret` — the app's API secret key, which becomes the connection's webhook secret since Shopify signs the subscriptions an app makes with it; WooCommerce takes `storeUrl` and `restKey`. A replaced token keeps its credential (flows name it) and its host: a token for another shop is a 409. Then the webhooks are registered as when connecting with a token (`subscriptions`). Audited; the reply never holds the token.",
    tag: "Store connections",
    role: "editor",
    body: connectionWritesInput,
    example: {
      shopDomain: "nordlicht-goods.myshopify.com",
      adminToken: "shpat_0123456789abcdef0123456789abcdef",
      secret: "a1b2c3d4e5f6a7b8c9d0",
    },
    ok: {
      status: 200,
      description: "The connection, with `writes` and `subscriptions`.",
      schema: connectionShape,
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
