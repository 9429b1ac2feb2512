import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { credentials, storeConnections } from "@/lib/db/schema";
import { open } from "@/lib/credentials/secret-box";
import { AppError, notFound } from "@/lib/errors";
import { freshJobsSql } from "@/lib/jobs";
import { PLATFORM_LABELS, type Platform } from "./platforms";
import { PLATFORM_HEADERS, signatureMatches } from "./signature";

/** A store's webhook body: Shopify's largest orders are a few hundred KB. */
export const MAX_DELIVERY_BYTES = 2_000_000;

export const deliveryTooLarge = () =>
  new AppError(413, "too_large", "The body is larger than 2 MB; Tillflow keeps deliveries up to 2 MB.");

/** WooCommerce's ping when a webhook is saved: `webhook_id=<id>`, form-encoded, unsigned. */
const WOO_PING = /^webhook_id=(\d{1,20})$/;

export interface Received {
  id: string;
  result: "received" | "duplicate" | "applied";
}

async function connectionOf(platform: Platform, token: string) {
  if (!/^[A-Za-z0-9_-]{16,200}$/.test(token)) throw notFound("This connection URL");
  const [row] = await getDb()
    .select({
      id: storeConnections.id,
      tenantId: storeConnections.tenantId,
      platform: storeConnections.platform,
      sealed: credentials.value,
    })
    .from(storeConnections)
    .innerJoin(credentials, eq(credentials.id, storeConnections.credentialId))
    .where(eq(storeConnections.token, token));
  // Another platform's URL is not this one's: a Shopify webhook pasted into WooCommerce is a 404.
  if (!row || row.platform !== platform) throw notFound("This connection URL");
  return row;
}

/**
 * A webhook a connected store posted to `/api/connect/<platform>/<token>`. The token is checked
 * before the body is read; the signature before anything is written (a wrong one is a 401 and
 * records nothing). The delivery is recorded with its job in one statement and answered at once —
 * the worker applies it (process.ts) — so the store hears back well within its timeout. A copy of
 * a delivery already received (the same delivery id) is listed as a duplicate and starts nothing.
 */
export async function receiveDelivery(
  platform: Platform,
  token: string,
  readBody: (maxBytes: number) => Promise<Buffer>,
  headers: Headers,
): Promise<Received> {
  const connection = await connectionOf(platform, token);
  const raw = await readBody(MAX_DELIVERY_BYTES);
  const names = PLATFORM_HEADERS[platform];
  const topic = headers.get(names.topic)?.trim() ?? "";
  if (platform === "woocommerce" && !topic) {
    const ping = WOO_PING.exec(raw.toString("utf8").trim());
    if (ping) return recordPing(connection, ping[1]!);
  }
  const label = PLATFORM_LABELS[platform].label;
  if (!signatureMatches(open(connection.sealed, connection.tenantId), raw, headers.get(names.signature)))
    throw new AppError(
      401,
      "unauthorized",
      `The ${headers.get(names.signature) ? "signature does not match" : "signature header is missing"}: ${label} signs each webhook with its secret (${names.signature}: base64 HMAC-SHA256 of the body). Check that the connection's secret is the one ${label} shows.`,
    );
  if (!/^[a-z_]+[/.][a-z_]+$/.test(topic))
    throw new AppError(400, "bad_request", `The ${names.topic} header is missing or is not a topic.`);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new AppError(400, "bad_request", "The body is not valid JSON; set the webhook's format to JSON.");
  }
  const deliveryId = names.deliveryIds.map((name) => headers.get(name)?.trim()).find(Boolean) ?? null;
  return recordDelivery(connection, { topic, deliveryId: deliveryId?.slice(0, 200) ?? null, body });
}

async function recordDelivery(
  connection: { id: string; tenantId: string },
  delivery: { topic: string; deliveryId: string | null; body: unknown },
): Promise<Received> {
  const { id: connectionId, tenantId } = connection;
  const values = sql`${tenantId}::uuid, ${connectionId}::uuid, ${delivery.topic}, ${delivery.deliveryId}`;
  const [row] = await getDb().execute<{ fresh: string | null; copy: string | null }>(sql`
    with fresh as (
      insert into connection_deliveries (tenant_id, connection_id, topic, delivery_id, dedupe_key, body)
      values (${values}, ${delivery.deliveryId}, ${JSON.stringify(delivery.body)}::jsonb)
      on conflict (connection_id, dedupe_key) do nothing
      returning id
    ),
    copy as (
      insert into connection_deliveries
        (tenant_id, connection_id, topic, delivery_id, result, reason, processed_at)
      select ${values}, 'duplicate', ${`This delivery (${delivery.deliveryId}) was received before; nothing was done again.`}, now()
      where not exists (select 1 from fresh)
      returning id
    ),
    ${freshJobsSql("jobs", "connection_delivery", sql`select json_build_object('deliveryId', id) as payload, null::text as key from fresh`)}
    select (select id from fresh) as fresh, (select id from copy) as copy, (select count(*) from jobs) as notified`);
  return row!.fresh ? { id: row!.fresh, result: "received" } : { id: row!.copy!, result: "duplicate" };
}

/** The ping is listed (once per WooCommerce webhook), so the merchant sees the store got through. */
async function recordPing(
  connection: { id: string; tenantId: string },
  webhookId: string,
): Promise<Received> {
  const [row] = await getDb().execute<{ id: string }>(sql`
    insert into connection_deliveries
      (tenant_id, connection_id, topic, delivery_id, dedupe_key, result, reason, processed_at)
    values (${connection.tenantId}::uuid, ${connection.id}::uuid, 'ping', ${webhookId}, ${`ping:${webhookId}`}, 'applied',
      ${`WooCommerce checked this URL when its webhook ${webhookId} was saved: it answers.`}, now())
    on conflict (connection_id, dedupe_key) do update set received_at = now()
    returning id`);
  return { id: row!.id, result: "applied" };
}
