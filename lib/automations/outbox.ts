import { and, desc, eq, lt, or } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, outboxEmails } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { decodeCursor, encodeCursor } from "@/lib/pagination";

export const outboxQuery = z.object({
  kind: z.enum(["email", "http"]).default("email"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Emails written by flows, or HTTP deliveries with their idempotency key and response. */
export async function listOutbox(tenantId: string, query: unknown = {}) {
  const q = parseOrThrow(outboxQuery, query, "The outbox query is invalid");
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  if (q.kind === "email") {
    const rows = await getDb()
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.tenantId, tenantId),
          after
            ? or(
                lt(outboxEmails.createdAt, after.at),
                and(eq(outboxEmails.createdAt, after.at), lt(outboxEmails.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
      .limit(q.limit + 1);
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      items: page.map((e) => ({
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
      nextCursor: rows.length > q.limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }
  const rows = await getDb()
    .select()
    .from(actionDeliveries)
    .where(
      and(
        eq(actionDeliveries.tenantId, tenantId),
        eq(actionDeliveries.nodeType, "auto.action.http_request"),
        after
          ? or(
              lt(actionDeliveries.createdAt, after.at),
              and(eq(actionDeliveries.createdAt, after.at), lt(actionDeliveries.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(actionDeliveries.createdAt), desc(actionDeliveries.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map((d) => ({
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
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
