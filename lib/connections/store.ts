import "server-only";
import crypto from "node:crypto";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { appUrl } from "@/lib/auth/auth";
import { credentialSecret, insertCredential } from "@/lib/credentials/store";
import { KIND_LABELS, shopDomain, valueProblem } from "@/lib/credentials/kinds";
import { hostOfUrl } from "@/lib/credentials/hosts";
import {
  listSubscriptions,
  removeSubscriptions,
  repairSubscriptions,
  type ShopAccess,
  type SubscriptionsView,
} from "./subscriptions";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { connectionDeliveries, credentials, storeConnections } from "@/lib/db/schema";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { decodeCursor, encodeCursor } from "@/lib/pagination";
import {
  connectionPath,
  PLATFORM_LABELS,
  PLATFORMS,
  type DeliveryResultName,
  type Platform,
} from "./platforms";

/**
 * A shop's store connections (SPEC §2 "Store connections"): made and deleted by editors, listed by
 * every role. The webhook secret is kept as a credential of the platform's kind, made with the
 * connection and deleted with it; nothing here returns it.
 */

export interface ConnectionView {
  id: string;
  platform: Platform;
  name: string;
  /** The URL to paste into the platform's webhook settings. */
  url: string;
  credential: { id: string; name: string; last4: string };
  createdBy: string;
  createdAt: string;
  /** The latest delivery's time, or null before the store has posted anything. */
  lastDeliveryAt: string | null;
  /**
   * The credential that writes back to the store (issue 52): a Shopify Admin API token or a
   * WooCommerce REST key, never its value; `host` is the store it may go to. Null: read-only.
   */
  writes: { credentialId: string; name: string; last4: string; host: string } | null;
  /** On the reply that connected a Shopify store with a token: the webhooks Tillflow registered. */
  subscriptions?: SubscriptionsView;
}

/** One delivery as SPEC §4 lists it: `{ at, topic, result, reason?, domain?, entityId? }`, and more. */
export interface DeliveryView {
  id: string;
  /** When it arrived. */
  at: string;
  /** When the worker applied it; null while `received`. */
  processedAt: string | null;
  topic: string;
  /** The platform's id of this delivery. */
  deliveryId: string | null;
  result: DeliveryResultName;
  reason?: string;
  domain?: string;
  entityId?: string;
}

export const createConnectionInput = z
  .strictObject({
    platform: z.enum(PLATFORMS, "choose shopify or woocommerce"),
    name: z
      .string()
      .trim()
      .min(1, "give the connection a name, such as the store's domain")
      .max(100, "a name has at most 100 characters"),
    secret: z
      .string()
      .trim()
      .min(8, "paste the webhook secret the platform shows (at least 8 characters)")
      .max(500)
      .regex(/^\S+$/, "a webhook secret is one word, without spaces"),
    /** Shopify: the shop's domain and an Admin API access token, to write back and register webhooks. */
    shopDomain: z.string().trim().max(255).optional(),
    adminToken: z.string().trim().max(500).optional(),
    /** WooCommerce: the store's https URL and its REST API key as `ck_…:cs_…`, to write back. */
    storeUrl: z.string().trim().max(500).optional(),
    restKey: z.string().trim().max(500).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.platform === "shopify" && input.adminToken) {
      const problem = valueProblem("shopify_admin", input.adminToken);
      if (problem) ctx.addIssue({ code: "custom", path: ["adminToken"], message: problem });
      if (!shopDomain(input.shopDomain ?? ""))
        ctx.addIssue({
          code: "custom",
          path: ["shopDomain"],
          message: "give the shop's domain, as my-shop.myshopify.com, to use its Admin API token",
        });
    }
    if (input.platform === "woocommerce" && input.restKey) {
      const problem = valueProblem("woocommerce_rest", input.restKey);
      if (problem) ctx.addIssue({ code: "custom", path: ["restKey"], message: problem });
      if (!/^https:\/\/[^/\s]+\/?$/i.test(input.storeUrl ?? "") || !hostOfUrl(input.storeUrl ?? ""))
        ctx.addIssue({
          code: "custom",
          path: ["storeUrl"],
          message: "give the store's address as https://shop.example.com (the key is only sent over https)",
        });
    }
    if (input.platform === "woocommerce" && input.adminToken)
      ctx.addIssue({
        code: "custom",
        path: ["adminToken"],
        message: "an Admin API token is Shopify's; WooCommerce uses a REST key",
      });
    if (input.platform === "shopify" && input.restKey)
      ctx.addIssue({
        code: "custom",
        path: ["restKey"],
        message: "a REST key is WooCommerce's; Shopify uses an Admin API token",
      });
  });

const adminCredentials = alias(credentials, "admin_credentials");

const connectionColumns = {
  id: storeConnections.id,
  platform: storeConnections.platform,
  name: storeConnections.name,
  token: storeConnections.token,
  createdBy: storeConnections.createdBy,
  createdAt: storeConnections.createdAt,
  credentialId: credentials.id,
  credentialName: credentials.name,
  last4: credentials.last4,
  adminCredentialId: adminCredentials.id,
  adminName: adminCredentials.name,
  adminLast4: adminCredentials.last4,
  adminHosts: adminCredentials.allowedHosts,
};

type ConnectionRow = {
  [K in keyof typeof connectionColumns]:
    (typeof connectionColumns)[K]["_"]["data"] | (K extends `admin${string}` ? null : never);
};

function view(row: ConnectionRow, lastDeliveryAt: Date | null): ConnectionView {
  return {
    id: row.id,
    platform: row.platform,
    name: row.name,
    url: `${appUrl()}${connectionPath(row.platform, row.token)}`,
    credential: { id: row.credentialId, name: row.credentialName, last4: row.last4 },
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastDeliveryAt: lastDeliveryAt?.toISOString() ?? null,
    writes:
      row.adminCredentialId && row.adminName && row.adminLast4
        ? {
            credentialId: row.adminCredentialId,
            name: row.adminName,
            last4: row.adminLast4,
            host: row.adminHosts?.[0] ?? "",
          }
        : null,
  };
}

function selectConnections(db: DbOrTx, tenantId: string) {
  return db
    .select(connectionColumns)
    .from(storeConnections)
    .innerJoin(credentials, eq(credentials.id, storeConnections.credentialId))
    .leftJoin(adminCredentials, eq(adminCredentials.id, storeConnections.adminCredentialId))
    .where(eq(storeConnections.tenantId, tenantId))
    .$dynamic();
}

/**
 * Each connection's latest delivery: one probe of connection_deliveries_page_idx per connection
 * (a shop has a few), not a DISTINCT ON over its 30 days of deliveries (676 ms for 300,000).
 */
async function lastDeliveries(
  db: DbOrTx,
  tenantId: string,
  connectionId?: string,
): Promise<Map<string, Date>> {
  const rows = await db
    .select({
      connectionId: storeConnections.id,
      at: sql<Date | null>`(
        select d.received_at from ${connectionDeliveries} d
        where d.tenant_id = ${storeConnections.tenantId} and d.connection_id = ${storeConnections.id}
        order by d.received_at desc limit 1)`.mapWith(connectionDeliveries.receivedAt),
    })
    .from(storeConnections)
    .where(
      and(
        eq(storeConnections.tenantId, tenantId),
        connectionId ? eq(storeConnections.id, connectionId) : undefined,
      ),
    );
  return new Map(rows.flatMap((r) => (r.at ? [[r.connectionId, r.at] as const] : [])));
}

export async function listConnections(tenantId: string, db: DbOrTx = getDb()): Promise<ConnectionView[]> {
  const rows = await selectConnections(db, tenantId).orderBy(asc(storeConnections.name));
  const last = await lastDeliveries(db, tenantId);
  return rows.map((row) => view(row, last.get(row.id) ?? null));
}

async function loadConnection(db: DbOrTx, tenantId: string, id: string): Promise<ConnectionRow> {
  if (!isUuid(id)) throw notFound("That connection");
  const [row] = await selectConnections(db, tenantId).where(
    and(eq(storeConnections.tenantId, tenantId), eq(storeConnections.id, id)),
  );
  if (!row) throw notFound("That connection");
  return row;
}

export async function getConnection(tenantId: string, id: string): Promise<ConnectionView> {
  const db = getDb();
  const row = await loadConnection(db, tenantId, id);
  return view(row, (await lastDeliveries(db, tenantId, row.id)).get(row.id) ?? null);
}

/**
 * Connects a store: its secret becomes a credential ("<Platform> · <name>") and the connection a
 * URL of its own, in one transaction, audited.
 */
export async function createConnection(caller: Caller, body: unknown): Promise<ConnectionView> {
  const input = parseOrThrow(createConnectionInput, body, "The connection is invalid");
  const label = PLATFORM_LABELS[input.platform].label;
  const tenantId = caller.tenant.id;
  let made: ConnectionView;
  try {
    made = await getDb().transaction(async (tx) => {
      const credential = await insertCredential(tx, caller, {
        name: `${label} · ${input.name}`,
        kind: input.platform,
        value: input.secret,
      });
      const admin = await insertWriteCredential(tx, caller, input);
      const [row] = await tx
        .insert(storeConnections)
        .values({
          tenantId,
          platform: input.platform,
          name: input.name,
          token: crypto.randomBytes(24).toString("base64url"),
          credentialId: credential.id,
          adminCredentialId: admin?.id ?? null,
          createdBy: actorLabel(caller.actor),
        })
        .returning({ id: storeConnections.id });
      await recordAudit(tx, caller, {
        action: "connection.created",
        subjectType: "connection",
        subjectId: row!.id,
        detail: { name: input.name, platform: input.platform, writes: admin !== null },
      });
      return view(await loadConnection(tx, tenantId, row!.id), null);
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw nameConflict(input.name);
    if (isUniqueViolation(error)) throw nameConflict(input.name);
    throw error;
  }
  // Connect in one step: with a Shopify token, the webhooks are registered now (after the
  // connection is stored, so a slow or refusing Shopify never undoes it; Repair tries again).
  const access = await shopAccess(tenantId, made);
  return access ? { ...made, subscriptions: await repairSubscriptions(access) } : made;
}

/** The write credential a connection is made with, if the merchant gave one. */
async function insertWriteCredential(
  tx: DbOrTx,
  caller: Caller,
  input: z.infer<typeof createConnectionInput>,
): Promise<{ id: string } | null> {
  if (input.platform === "shopify" && input.adminToken) {
    const shop = shopDomain(input.shopDomain ?? "")!;
    return insertCredential(tx, caller, {
      name: `${KIND_LABELS.shopify_admin.label} · ${input.name}`,
      kind: "shopify_admin",
      value: input.adminToken,
      allowedHosts: [shop],
    });
  }
  if (input.platform === "woocommerce" && input.restKey)
    return insertCredential(tx, caller, {
      name: `${KIND_LABELS.woocommerce_rest.label} · ${input.name}`,
      kind: "woocommerce_rest",
      value: input.restKey,
      allowedHosts: [hostOfUrl(input.storeUrl ?? "")!],
    });
  return null;
}

/** A Shopify connection's shop, token and URL, when it was connected with a token; else null. */
async function shopAccess(tenantId: string, connection: ConnectionView): Promise<ShopAccess | null> {
  if (connection.platform !== "shopify" || !connection.writes) return null;
  const credential = await credentialSecret(tenantId, connection.writes.credentialId);
  if (!credential || credential.kind !== "shopify_admin" || !credential.allowedHosts[0]) return null;
  return { shop: credential.allowedHosts[0], token: credential.value, uri: connection.url };
}

const NO_TOKEN =
  "This connection has no Admin API token, so Tillflow cannot see or make its webhooks: create them in the Shopify admin (Settings → Notifications → Webhooks) with this connection's URL.";

/** A Shopify connection's webhook subscriptions, each topic with its state, read from Shopify. */
export async function connectionSubscriptions(tenantId: string, id: string): Promise<SubscriptionsView> {
  const access = await shopAccess(tenantId, await getConnection(tenantId, id));
  if (!access) throw new AppError(409, "conflict", NO_TOKEN);
  return listSubscriptions(access);
}

/** "Repair": creates the missing subscriptions again (audited). */
export async function repairConnectionSubscriptions(
  caller: Caller,
  id: string,
): Promise<SubscriptionsView & { created: number }> {
  const connection = await getConnection(caller.tenant.id, id);
  const access = await shopAccess(caller.tenant.id, connection);
  if (!access) throw new AppError(409, "conflict", NO_TOKEN);
  const result = await repairSubscriptions(access);
  await recordAudit(getDb(), caller, {
    action: "connection.webhooks_repaired",
    subjectType: "connection",
    subjectId: connection.id,
    detail: { name: connection.name, created: result.created },
  });
  return result;
}

const nameConflict = (name: string) =>
  new AppError(
    409,
    "conflict",
    `A connection named '${name}' already exists in this shop; choose another name.`,
  );

/**
 * Disconnects a store: its URL stops answering, its secret, write credential and deliveries go
 * with it; the webhooks Tillflow registered with its token are deleted in Shopify first.
 */
export async function deleteConnection(
  caller: Caller,
  id: string,
): Promise<{ id: string; deleted: true; webhooks?: { removed: number; error?: string } }> {
  const connection = await getConnection(caller.tenant.id, id);
  const access = await shopAccess(caller.tenant.id, connection);
  const webhooks = access ? await removeSubscriptions(access) : undefined;
  return getDb().transaction(async (tx) => {
    const row = await loadConnection(tx, caller.tenant.id, id);
    await tx.delete(storeConnections).where(eq(storeConnections.id, row.id));
    await tx.delete(credentials).where(eq(credentials.id, row.credentialId));
    if (row.adminCredentialId) await tx.delete(credentials).where(eq(credentials.id, row.adminCredentialId));
    await recordAudit(tx, caller, {
      action: "connection.deleted",
      subjectType: "connection",
      subjectId: row.id,
      detail: { name: row.name, platform: row.platform },
    });
    return { id: row.id, deleted: true as const, ...(webhooks ? { webhooks } : {}) };
  });
}

export const listDeliveriesQuery = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * After the cursor's delivery, as one row comparison: the bound of a scan of
 * connection_deliveries_page_idx (`received_at desc, id desc`), where the `or` of afterCursor is a
 * filter over every newer delivery.
 */
function afterDelivery(cursor: { at: Date; id: string } | null): SQL | undefined {
  // A delivery's id is a uuid: any other cursor is not one this API returned (a 400, not a 500).
  if (cursor && !isUuid(cursor.id))
    throw new AppError(
      400,
      "bad_request",
      "The cursor is not one this API returned; start again without it.",
    );
  return cursor
    ? sql`(${connectionDeliveries.receivedAt}, ${connectionDeliveries.id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id}::uuid)`
    : undefined;
}

/** A connection's deliveries, newest first, a page at a time. */
export async function listDeliveries(
  tenantId: string,
  connectionId: string,
  query: unknown,
): Promise<{ items: DeliveryView[]; nextCursor: string | null }> {
  const { cursor, limit } = parseOrThrow(listDeliveriesQuery, query, "The query is invalid");
  const db = getDb();
  const connection = await loadConnection(db, tenantId, connectionId);
  const rows = await db
    .select({
      id: connectionDeliveries.id,
      receivedAt: connectionDeliveries.receivedAt,
      processedAt: connectionDeliveries.processedAt,
      topic: connectionDeliveries.topic,
      deliveryId: connectionDeliveries.deliveryId,
      result: connectionDeliveries.result,
      reason: connectionDeliveries.reason,
      domain: connectionDeliveries.domain,
      entityId: connectionDeliveries.entityId,
    })
    .from(connectionDeliveries)
    .where(
      and(
        eq(connectionDeliveries.tenantId, tenantId),
        eq(connectionDeliveries.connectionId, connection.id),
        afterDelivery(cursor ? decodeCursor(cursor) : null),
      ),
    )
    .orderBy(desc(connectionDeliveries.receivedAt), desc(connectionDeliveries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      at: r.receivedAt.toISOString(),
      processedAt: r.processedAt?.toISOString() ?? null,
      topic: r.topic,
      deliveryId: r.deliveryId,
      result: r.result,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.domain && r.entityId ? { domain: r.domain, entityId: r.entityId } : {}),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.receivedAt, last.id) : null,
  };
}
