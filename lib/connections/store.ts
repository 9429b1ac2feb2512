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
import { lastFour, seal } from "@/lib/credentials/secret-box";
import {
  listStoreSubscriptions,
  removeStoreSubscriptions,
  repairStoreSubscriptions,
  type StoreAccess,
  type SubscriptionsView,
} from "./subscriptions";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { connectionDeliveries, credentials, storeConnections } from "@/lib/db/schema";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { decodeCursor, encodeCursor } from "@/lib/pagination/cursor";
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
  /** On the reply that connected a store with a token or key: the webhooks Tillflow registered. */
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
  .superRefine((input, ctx) => writeKeyIssues(input.platform, input, ctx));

interface WriteKeyFields {
  shopDomain?: string | undefined;
  adminToken?: string | undefined;
  storeUrl?: string | undefined;
  restKey?: string | undefined;
}

/** What is wrong with a store's write key and its address, field by field (on connect and later). */
function writeKeyIssues(platform: Platform, input: WriteKeyFields, ctx: z.RefinementCtx): void {
  if (platform === "shopify" && input.adminToken) {
    const problem = valueProblem("shopify_admin", input.adminToken);
    if (problem) ctx.addIssue({ code: "custom", path: ["adminToken"], message: problem });
    if (!shopDomain(input.shopDomain ?? ""))
      ctx.addIssue({
        code: "custom",
        path: ["shopDomain"],
        message: "give the shop's domain, as my-shop.myshopify.com, to use its Admin API token",
      });
  }
  if (platform === "woocommerce" && input.restKey) {
    const problem = valueProblem("woocommerce_rest", input.restKey);
    if (problem) ctx.addIssue({ code: "custom", path: ["restKey"], message: problem });
    if (!/^https:\/\/[^/\s]+\/?$/i.test(input.storeUrl ?? "") || !hostOfUrl(input.storeUrl ?? ""))
      ctx.addIssue({
        code: "custom",
        path: ["storeUrl"],
        message: "give the store's address as https://shop.example.com (the key is only sent over https)",
      });
  }
  if (platform === "woocommerce" && input.adminToken)
    ctx.addIssue({
      code: "custom",
      path: ["adminToken"],
      message: "an Admin API token is Shopify's; WooCommerce uses a REST key",
    });
  if (platform === "shopify" && input.restKey)
    ctx.addIssue({
      code: "custom",
      path: ["restKey"],
      message: "a REST key is WooCommerce's; Shopify uses an Admin API token",
    });
}

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
  // Connect in one step: with a Shopify token or a WooCommerce key, the webhooks are registered
  // now (after the connection is stored, so a slow or refusing store never undoes it; Repair
  // tries again).
  const access = await storeAccess(tenantId, made);
  return access ? { ...made, subscriptions: await repairStoreSubscriptions(access) } : made;
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

/**
 * What reaching a connection's store takes, when it has a write credential: a Shopify shop and
 * token, or a WooCommerce store, REST key and the connection's webhook secret; else null.
 */
async function storeAccess(tenantId: string, connection: ConnectionView): Promise<StoreAccess | null> {
  if (!connection.writes) return null;
  const credential = await credentialSecret(tenantId, connection.writes.credentialId);
  if (!credential?.allowedHosts[0]) return null;
  if (connection.platform === "shopify" && credential.kind === "shopify_admin")
    return {
      platform: "shopify",
      shop: credential.allowedHosts[0],
      token: credential.value,
      uri: connection.url,
    };
  if (connection.platform === "woocommerce" && credential.kind === "woocommerce_rest") {
    const secret = await credentialSecret(tenantId, connection.credential.id);
    if (!secret) return null;
    return {
      platform: "woocommerce",
      host: credential.allowedHosts[0],
      key: credential.value,
      secret: secret.value,
      uri: connection.url,
    };
  }
  return null;
}

const NO_KEY: Record<Platform, string> = {
  shopify:
    "This connection has no Admin API token, so Tillflow cannot see or make its webhooks: add one to the connection, or create them in the Shopify admin (Settings → Notifications → Webhooks) with this connection's URL.",
  woocommerce:
    "This connection has no REST API key, so Tillflow cannot see or make its webhooks: add one to the connection, or create them in WooCommerce → Settings → Advanced → Webhooks with this connection's URL.",
};

/** A connection's webhooks in its store, each topic with its state, read from the store. */
export async function connectionSubscriptions(tenantId: string, id: string): Promise<SubscriptionsView> {
  const connection = await getConnection(tenantId, id);
  const access = await storeAccess(tenantId, connection);
  if (!access) throw new AppError(409, "conflict", NO_KEY[connection.platform]);
  return listStoreSubscriptions(access);
}

/** "Repair": creates the missing webhooks again (audited). */
export async function repairConnectionSubscriptions(
  caller: Caller,
  id: string,
): Promise<SubscriptionsView & { created: number }> {
  const connection = await getConnection(caller.tenant.id, id);
  const access = await storeAccess(caller.tenant.id, connection);
  if (!access) throw new AppError(409, "conflict", NO_KEY[connection.platform]);
  const result = await repairStoreSubscriptions(access);
  await recordAudit(getDb(), caller, {
    action: "connection.webhooks_repaired",
    subjectType: "connection",
    subjectId: connection.id,
    detail: { name: connection.name, created: result.created },
  });
  return result;
}

/**
 * The token or key of a connection made earlier without one (or one to replace): a Shopify shop's
 * domain and Admin API token, with the app's API secret key as the connection's new webhook
 * secret when it had no token yet (Shopify signs the webhooks an app makes with it); or a
 * WooCommerce store's https address and REST key.
 */
export const connectionWritesInput = z.strictObject({
  shopDomain: z.string().trim().max(255).optional(),
  adminToken: z.string().trim().max(500).optional(),
  storeUrl: z.string().trim().max(500).optional(),
  restKey: z.string().trim().max(500).optional(),
  secret: z
    .string()
    .trim()
    .min(8, "paste the app's API secret key (at least 8 characters)")
    .max(500)
    .regex(/^\S+$/, "a webhook secret is one word, without spaces")
    .optional(),
});

/**
 * Adds a write credential to a connection, or replaces its value: audited, for editors and admins.
 * A replaced token keeps its credential (flows name it) and its one host: a token for another
 * shop needs a connection of its own. Then, as when connecting with a token, the webhooks are
 * registered (after the change is stored; Repair tries again).
 */
export async function setConnectionWrites(
  caller: Caller,
  id: string,
  body: unknown,
): Promise<ConnectionView> {
  const tenantId = caller.tenant.id;
  // The shape first (a 422 before anything is looked up), then what the connection's platform needs.
  const fields = parseOrThrow(connectionWritesInput, body, "The key is invalid");
  const current = await getConnection(tenantId, id);
  const input = parseOrThrow(
    connectionWritesInput.superRefine((given, ctx) => {
      const shopify = current.platform === "shopify";
      if (!(shopify ? given.adminToken : given.restKey))
        ctx.addIssue({
          code: "custom",
          path: [shopify ? "adminToken" : "restKey"],
          message: shopify
            ? "give the Admin API token of the app you made in the Shopify admin"
            : "give the REST API key, as ck_…:cs_…",
        });
      writeKeyIssues(current.platform, given, ctx);
    }),
    fields,
    "The key is invalid",
  );
  const shopify = current.platform === "shopify";
  if (shopify && !current.writes && !input.secret)
    throw new AppError(
      422,
      "invalid",
      "The key is invalid: secret: give the app's API secret key (client secret) as the secret: Shopify signs the webhooks Tillflow creates with it.",
      [
        {
          path: "secret",
          message:
            "secret: give the app's API secret key (client secret): Shopify signs the webhooks Tillflow creates with it",
        },
      ],
    );
  const value = (shopify ? input.adminToken : input.restKey)!;
  const host = shopify ? shopDomain(input.shopDomain ?? "")! : hostOfUrl(input.storeUrl ?? "")!;
  const updated = await getDb().transaction(async (tx) => {
    const row = await loadConnection(tx, tenantId, id);
    if (row.adminCredentialId) {
      const kept = row.adminHosts?.[0];
      if (kept && kept !== host)
        throw new AppError(
          409,
          "conflict",
          `This connection writes to ${kept}; a ${shopify ? "token" : "key"} for ${host} needs a connection of its own.`,
        );
      await tx
        .update(credentials)
        .set({ value: seal(value, tenantId), last4: lastFour(value), rotatedAt: new Date() })
        .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, row.adminCredentialId)));
      await recordAudit(tx, caller, {
        action: "credential.rotated",
        subjectType: "credential",
        subjectId: row.adminCredentialId,
        detail: { name: row.adminName, kind: shopify ? "shopify_admin" : "woocommerce_rest" },
      });
    } else {
      const made = await insertWriteCredential(tx, caller, {
        platform: row.platform,
        name: row.name,
        secret: "",
        ...(shopify
          ? { shopDomain: input.shopDomain, adminToken: value }
          : { storeUrl: input.storeUrl, restKey: value }),
      });
      await tx
        .update(storeConnections)
        .set({ adminCredentialId: made!.id })
        .where(and(eq(storeConnections.tenantId, tenantId), eq(storeConnections.id, row.id)));
    }
    if (input.secret) {
      await tx
        .update(credentials)
        .set({ value: seal(input.secret, tenantId), last4: lastFour(input.secret), rotatedAt: new Date() })
        .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, row.credentialId)));
    }
    await recordAudit(tx, caller, {
      action: "connection.writes_set",
      subjectType: "connection",
      subjectId: row.id,
      detail: {
        name: row.name,
        platform: row.platform,
        host,
        replaced: row.adminCredentialId !== null,
        secretChanged: input.secret !== undefined,
      },
    });
    return view(await loadConnection(tx, tenantId, row.id), null);
  });
  const access = await storeAccess(tenantId, updated);
  return {
    ...updated,
    lastDeliveryAt: current.lastDeliveryAt,
    ...(access ? { subscriptions: await repairStoreSubscriptions(access) } : {}),
  };
}

const nameConflict = (name: string) =>
  new AppError(
    409,
    "conflict",
    `A connection named '${name}' already exists in this shop; choose another name.`,
  );

/**
 * Disconnects a store: its URL stops answering, its secret, write credential and deliveries go
 * with it; the webhooks Tillflow registered with its token or key are deleted in the store first.
 */
export async function deleteConnection(
  caller: Caller,
  id: string,
): Promise<{ id: string; deleted: true; webhooks?: { removed: number; error?: string } }> {
  const connection = await getConnection(caller.tenant.id, id);
  const access = await storeAccess(caller.tenant.id, connection);
  const webhooks = access ? await removeStoreSubscriptions(access) : undefined;
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
