import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { AppError, notFound } from "@/lib/errors";
import { freshJobsSql } from "@/lib/jobs";
import { MAX_DELIVERY_DEPTH, nestsDeeperThan } from "./depth";
import { connectionOf, forgetConnection, type KnownConnection } from "./lookup";
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
  result: "received" | "duplicate" | "applied" | "refused";
  /** Why it was refused at once (recorded as `refused`, nothing applied). */
  reason?: string;
}

/** A body nested past `MAX_DELIVERY_DEPTH`: listed as refused, with nothing applied. */
const TOO_DEEP = `The body nests objects and lists more than ${MAX_DELIVERY_DEPTH} levels deep; Tillflow reads store payloads up to ${MAX_DELIVERY_DEPTH} levels (Shopify's and WooCommerce's nest fewer than 10), so nothing was applied.`;

/**
 * A webhook a connected store posted to `/api/connect/<platform>/<token>`. The token is checked
 * before the body is read; the signature before anything is written (a wrong one is a 401 and
 * records nothing). The delivery is recorded with its job in one statement and answered at once —
 * the worker applies it (process.ts) — so the store hears back well within its timeout. A delivery
 * without the platform's delivery id is a 400 that records nothing. A copy of a delivery already
 * received — the same delivery id, or the same signed body on the same topic under any id (the id
 * header is not signed: issue 47) — is listed as a duplicate and starts nothing.
 * A body nested past `MAX_DELIVERY_DEPTH` is listed as refused with its reason, without its body
 * or a job: no later step then has to walk it (depth.ts).
 */
export async function receiveDelivery(
  platform: Platform,
  token: string,
  readBody: (maxBytes: number) => Promise<Buffer>,
  headers: Headers,
): Promise<Received> {
  let connection = await connectionOf(platform, token);
  const raw = await readBody(MAX_DELIVERY_BYTES);
  const names = PLATFORM_HEADERS[platform];
  const topic = headers.get(names.topic)?.trim() ?? "";
  if (platform === "woocommerce" && !topic) {
    const ping = WOO_PING.exec(raw.toString("utf8").trim());
    if (ping) return recordPing(connection, ping[1]!);
  }
  const label = PLATFORM_LABELS[platform].label;
  const signature = headers.get(names.signature);
  let signed = signatureMatches(connection.secret, raw, signature);
  // A remembered secret may have been rotated since: read it again before refusing.
  if (!signed && !connection.fresh) {
    connection = await connectionOf(platform, token, { fresh: true });
    signed = signatureMatches(connection.secret, raw, signature);
  }
  if (!signed)
    throw new AppError(
      401,
      "unauthorized",
      `The ${signature ? "signature does not match" : "signature header is missing"}: ${label} signs each webhook with its secret (${names.signature}: base64 HMAC-SHA256 of the body). Check that the connection's secret is the one ${label} shows.`,
    );
  if (!/^[a-z_]+[/.][a-z_]+$/.test(topic))
    throw new AppError(400, "bad_request", `The ${names.topic} header is missing or is not a topic.`);
  // Counted before parsing: a body refused for its depth is never parsed (a million levels of
  // nesting is a million lists to make and collect).
  const tooDeep = nestsDeeperThan(raw, MAX_DELIVERY_DEPTH);
  // Not parsed here: Postgres reads it as jsonb where it is stored, and a body that is not JSON is
  // refused by that statement (`unstorable`). Parsing 2 MB of 60,000 fields here as well held the
  // web server's event loop for 50 ms and more (issue 46).
  const json = tooDeep ? null : raw.toString("utf8");
  const deliveryId = names.deliveryIds.map((name) => headers.get(name)?.trim()).find(Boolean);
  // Without its id a copy of a delivery (the platform's retry) could not be told from a new one.
  if (!deliveryId)
    throw new AppError(
      400,
      "bad_request",
      `The ${names.deliveryIds.join(" or ")} header is missing: ${label} names each delivery, and Tillflow takes a delivery only with its id so a copy of it is never applied twice. Nothing was recorded.`,
    );
  // The body is stored as the store sent it (it parsed as JSON above): no second serialising.
  const received = await recordDelivery(connection, token, {
    topic,
    deliveryId: deliveryId.slice(0, 200),
    bodyHash: crypto.createHash("sha256").update(raw).digest("hex"),
    json,
    refusal: tooDeep ? TOO_DEEP : null,
  });
  if (received) return received;
  forgetConnection(token);
  throw notFound("This connection URL");
}

/**
 * The delivery and its job, or a `duplicate` row for a copy, in one statement. It names the
 * connection by id and token, so a connection deleted since it was remembered (lookup.ts) records
 * nothing: null. A `refusal` is recorded as the delivery's result at once, with no body and no job.
 *
 * A copy is told by either unique key of the delivery's row, the delivery id
 * (`connection_deliveries_dedupe_key`) or the topic and the body's SHA-256
 * (`connection_deliveries_body_key`): `on conflict do nothing` names no key, so both are checked,
 * each as one index probe, by the insert itself. Two identical deliveries at once are one insert
 * and one copy — the second waits on the first's row in the unique index. The keys hold while the
 * first row is kept: 30 days (prune.ts), longer than the platforms retry (48 hours).
 */
async function recordDelivery(
  connection: KnownConnection,
  token: string,
  delivery: {
    topic: string;
    deliveryId: string;
    bodyHash: string;
    json: string | null;
    refusal: string | null;
  },
): Promise<Received | null> {
  const { deliveryId, refusal } = delivery;
  const duplicate = `This delivery (${deliveryId}) was received before — its id, or the same signed body on the same topic; nothing was done again. Its copies are listed here once, the latest.`;
  // Copies of one body on one topic share one `duplicate` row, the latest, so a body replayed a
  // million times is one row more, not a million (a delivery id is never of this form).
  const copyKey = `copy:${crypto.createHash("sha256").update(`${delivery.topic}\n${delivery.bodyHash}`).digest("hex")}`;
  const [row] = await executePrepared<{ fresh: string | null; copy: string | null }>(sql`
    with connection as (
      select id, tenant_id from store_connections where id = ${connection.id}::uuid and token = ${token}
    ),
    fresh as (
      insert into connection_deliveries
        (tenant_id, connection_id, topic, delivery_id, dedupe_key, body_hash, body, result, reason, processed_at)
      select tenant_id, id, ${delivery.topic}, ${deliveryId}, ${deliveryId}, ${delivery.bodyHash}, ${delivery.json}::jsonb,
        case when ${refusal}::text is null then 'received' else 'refused' end, ${refusal}::text,
        case when ${refusal}::text is null then null else now() end
      from connection
      on conflict do nothing
      returning id, result
    ),
    copy as (
      insert into connection_deliveries
        (tenant_id, connection_id, topic, delivery_id, dedupe_key, result, reason, processed_at)
      select tenant_id, id, ${delivery.topic}, ${deliveryId}, ${copyKey}, 'duplicate', ${duplicate}, now()
      from connection
      where not exists (select 1 from fresh)
      on conflict (connection_id, dedupe_key) do update
        set received_at = now(), processed_at = now(), delivery_id = excluded.delivery_id, reason = excluded.reason
      returning id
    ),
    ${freshJobsSql("jobs", "connection_delivery", connection.tenantId, sql`select json_build_object('deliveryId', id) as payload, null::text as key from fresh where result = 'received'`, { wake: "when-idle" })}
    select (select id from fresh) as fresh, (select id from copy) as copy, (select count(*) from jobs) as notified`).catch(
    (error: unknown) => {
      throw unstorable(error) ?? error;
    },
  );
  if (row?.fresh)
    return refusal
      ? { id: row.fresh, result: "refused", reason: refusal }
      : { id: row.fresh, result: "received" };
  if (row?.copy) return { id: row.copy, result: "duplicate" };
  return null;
}

/**
 * JSON that PostgreSQL cannot keep as jsonb — a NUL character (`\u0000`) or half of a surrogate
 * pair — is the store's to fix: a 400 that says so, not a 500 (the platform shows it in its
 * delivery log).
 */
function unstorable(error: unknown): AppError | null {
  const { code, detail } =
    typeof error === "object" && error !== null ? (error as { code?: unknown; detail?: unknown }) : {};
  if (code !== "22P05" && code !== "22021" && code !== "22P02") return null;
  // 22P02 is jsonb's "invalid input syntax", said of half a surrogate pair as of a body that is not
  // JSON at all; only the first names Unicode in its detail.
  if (code === "22P02" && !/unicode|surrogate/i.test(typeof detail === "string" ? detail : ""))
    return new AppError(400, "bad_request", "The body is not valid JSON; set the webhook's format to JSON.");
  return new AppError(
    400,
    "bad_request",
    "The body holds text that cannot be stored (a NUL character, \\u0000, or half of a surrogate pair); nothing was recorded.",
  );
}

/**
 * The dedupe key of a connection's one ping row. A delivery id is the platform's (WooCommerce's are
 * numbers), so it is never this.
 */
const PING_KEY = "ping:latest";

/**
 * The ping is listed, so the merchant sees the store got through. It is unsigned — anyone holding
 * the URL can send one, with any webhook id — so a connection keeps one ping row, the latest,
 * updated in place (issue 47): a thousand pings are one row, not a thousand.
 */
async function recordPing(connection: KnownConnection, webhookId: string): Promise<Received> {
  const [row] = await getDb().execute<{ id: string }>(sql`
    insert into connection_deliveries
      (tenant_id, connection_id, topic, delivery_id, dedupe_key, result, reason, processed_at)
    values (${connection.tenantId}::uuid, ${connection.id}::uuid, 'ping', ${webhookId}, ${PING_KEY}, 'applied',
      ${`WooCommerce checked this URL when its webhook ${webhookId} was saved: it answers.`}, now())
    on conflict (connection_id, dedupe_key) do update
      set received_at = now(), processed_at = now(), delivery_id = excluded.delivery_id, reason = excluded.reason
    returning id`);
  return { id: row!.id, result: "applied" };
}
