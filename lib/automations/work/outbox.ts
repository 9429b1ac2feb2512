import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, outboxEmails, type DeliveryStatus } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/pagination/precise-cursor";

export const outboxQuery = z.object({
  kind: z.enum(["email", "http"]).default("email"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** An email written by a flow (`GET /api/v1/outbox?kind=email`). */
export interface OutboxEmailItem {
  kind: "email";
  id: string;
  /** The run that wrote it (null once that run is purged). */
  runId: string | null;
  nodeId: string | null;
  to: string;
  subject: string;
  /** The rendered message. */
  bodyHtml: string;
  /**
   * Headers sent besides the usual: a marketing email's `List-Unsubscribe` and
   * `List-Unsubscribe-Post` (RFC 8058); empty for others.
   */
  headers: Record<string, string>;
  /** `stored` (no SMTP configured), `queued`, `sent` or `failed`. */
  status: "stored" | "queued" | "sent" | "failed";
  /** Why sending failed. */
  error: string | null;
  sentAt: string | null;
  createdAt: string;
}

/** An HTTP request a flow made (`GET /api/v1/outbox?kind=http`). */
export interface OutboxHttpItem {
  kind: "http";
  id: string;
  runId: string;
  nodeId: string;
  /** The Idempotency-Key the request carried, the same on every re-send. */
  idempotencyKey: string;
  status: DeliveryStatus;
  /**
   * The request as recorded, its headers replaced by "(hidden)". Typed by that one field: the
   * others (method, url, body, …) are whatever the step recorded.
   */
  request: { headers: string };
  /** What the receiver answered (null before it did). */
  response: Record<string, unknown> | null;
  error: string | null;
  /** How many times it was sent. */
  attempts: number;
  createdAt: string;
  completedAt: string | null;
}

/** A page of emails written by flows. */
export interface OutboxEmailPage {
  items: OutboxEmailItem[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
}

/** A page of HTTP requests flows made. */
export interface OutboxHttpPage {
  items: OutboxHttpItem[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
}

/** A page of the outbox (`GET /api/v1/outbox`): emails or HTTP deliveries, as the query's `kind` asked. */
export type OutboxPage = OutboxEmailPage | OutboxHttpPage;

/** The last row of the page before, from the cursor (null on the first page). */
type After = { at: string; id: string } | null;

/** Emails written by flows, or HTTP deliveries with their idempotency key and response. */
export async function listOutbox(tenantId: string, query: unknown = {}): Promise<OutboxPage> {
  const q = parseOrThrow(outboxQuery, query, "The outbox query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  return q.kind === "email" ? emailPage(tenantId, after, q.limit) : httpPage(tenantId, after, q.limit);
}

/** Emails, newest first, keyset-paginated on (created_at, id). */
async function emailPage(tenantId: string, after: After, limit: number): Promise<OutboxEmailPage> {
  const rows = await getDb()
    .select({
      e: outboxEmails,
      at: sql<string>`${sql.raw(preciseTimestamp('"outbox_emails"."created_at"'))}`,
    })
    .from(outboxEmails)
    .where(
      and(
        eq(outboxEmails.tenantId, tenantId),
        after
          ? sql`(${outboxEmails.createdAt}, ${outboxEmails.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${outboxEmails.createdAt} desc nulls last`, sql`${outboxEmails.id} desc nulls last`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ e }) => ({
      kind: "email" as const,
      id: e.id,
      runId: e.runId,
      nodeId: e.nodeId,
      to: e.to,
      subject: e.subject,
      bodyHtml: e.bodyHtml,
      headers: e.headers,
      status: e.status,
      error: e.error,
      sentAt: e.sentAt?.toISOString() ?? null,
      createdAt: e.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodePreciseCursor(last.at, last.e.id) : null,
  };
}

/** HTTP requests of flows' HTTP steps, newest first, keyset-paginated on (created_at, id). */
async function httpPage(tenantId: string, after: After, limit: number): Promise<OutboxHttpPage> {
  const rows = await getDb()
    .select({
      d: actionDeliveries,
      at: sql<string>`${sql.raw(preciseTimestamp('"action_deliveries"."created_at"'))}`,
    })
    .from(actionDeliveries)
    .where(
      and(
        eq(actionDeliveries.tenantId, tenantId),
        eq(actionDeliveries.nodeType, "auto.action.http_request"),
        after
          ? sql`(${actionDeliveries.createdAt}, ${actionDeliveries.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${actionDeliveries.createdAt} desc nulls last`, sql`${actionDeliveries.id} desc nulls last`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ d }) => ({
      kind: "http" as const,
      id: d.id,
      runId: d.runId,
      nodeId: d.nodeId,
      idempotencyKey: d.dedupeKey,
      status: d.status,
      request: { ...d.request, headers: "(hidden)" },
      response: d.response,
      error: d.error,
      attempts: d.attempts,
      createdAt: d.createdAt.toISOString(),
      completedAt: d.completedAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > limit && last ? encodePreciseCursor(last.at, last.d.id) : null,
  };
}
