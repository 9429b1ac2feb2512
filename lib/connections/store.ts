import "server-only";
import crypto from "node:crypto";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { appUrl } from "@/lib/auth/auth";
import { insertCredential } from "@/lib/credentials/store";
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

export const createConnectionInput = z.strictObject({
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
});

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
};

type ConnectionRow = {
  [K in keyof typeof connectionColumns]: (typeof connectionColumns)[K]["_"]["data"];
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
  };
}

function selectConnections(db: DbOrTx, tenantId: string) {
  return db
    .select(connectionColumns)
    .from(storeConnections)
    .innerJoin(credentials, eq(credentials.id, storeConnections.credentialId))
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
  try {
    return await getDb().transaction(async (tx) => {
      const credential = await insertCredential(tx, caller, {
        name: `${label} · ${input.name}`,
        kind: input.platform,
        value: input.secret,
      });
      const [row] = await tx
        .insert(storeConnections)
        .values({
          tenantId,
          platform: input.platform,
          name: input.name,
          token: crypto.randomBytes(24).toString("base64url"),
          credentialId: credential.id,
          createdBy: actorLabel(caller.actor),
        })
        .returning({ id: storeConnections.id });
      await recordAudit(tx, caller, {
        action: "connection.created",
        subjectType: "connection",
        subjectId: row!.id,
        detail: { name: input.name, platform: input.platform },
      });
      return view(await loadConnection(tx, tenantId, row!.id), null);
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw nameConflict(input.name);
    if (isUniqueViolation(error)) throw nameConflict(input.name);
    throw error;
  }
}

const nameConflict = (name: string) =>
  new AppError(
    409,
    "conflict",
    `A connection named '${name}' already exists in this shop; choose another name.`,
  );

/** Disconnects a store: its URL stops answering, its secret and deliveries go with it. */
export async function deleteConnection(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  return getDb().transaction(async (tx) => {
    const row = await loadConnection(tx, caller.tenant.id, id);
    await tx.delete(storeConnections).where(eq(storeConnections.id, row.id));
    await tx.delete(credentials).where(eq(credentials.id, row.credentialId));
    await recordAudit(tx, caller, {
      action: "connection.deleted",
      subjectType: "connection",
      subjectId: row.id,
      detail: { name: row.name, platform: row.platform },
    });
    return { id: row.id, deleted: true as const };
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
