import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, outboxEmails } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/precise-cursor";

export const outboxQuery = z.object({
  kind: z.enum(["email", "http"]).default("email"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Emails written by flows, or HTTP deliveries with their idempotency key and response. */
export async function listOutbox(tenantId: string, query: unknown = {}) {
  const q = parseOrThrow(outboxQuery, query, "The outbox query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  if (q.kind === "email") {
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
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
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
        status: e.status,
        error: e.error,
        sentAt: e.sentAt?.toISOString() ?? null,
        createdAt: e.createdAt.toISOString(),
      })),
      nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.e.id) : null,
    };
  }
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
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
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
    nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.d.id) : null,
  };
}
