import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { alertHistory } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/pagination/precise-cursor";
import { ALERT_KINDS } from "./kinds";

/** `GET /api/v1/alerts/history`: newest first, keyset-paginated. */
export const alertHistoryQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce
    .number("The limit must be a number.")
    .int("The limit must be a whole number.")
    .min(1, "The limit must be at least 1.")
    .max(200, "The limit can be at most 200.")
    .default(50),
  kind: z.enum(ALERT_KINDS, `The kind must be one of ${ALERT_KINDS.join(", ")}.`).optional(),
});

export interface AlertHistoryItem {
  id: string;
  ruleId: string | null;
  automationId: string | null;
  automationName: string;
  kind: (typeof ALERT_KINDS)[number];
  message: string;
  count: number;
  runsUrl: string;
  channel: string;
  status: "pending" | "sent" | "failed";
  error: string | null;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
}

/** The shop's alerts, newest first: one range scan of `alert_history_tenant_idx`, no OFFSET. */
export async function listAlertHistory(
  tenantId: string,
  query: unknown = {},
): Promise<{ items: AlertHistoryItem[]; nextCursor: string | null }> {
  const q = parseOrThrow(alertHistoryQuery, query, "The history query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  const h = alertHistory;
  const rows = await getDb()
    .select({ row: h, at: sql<string>`${sql.raw(preciseTimestamp('"alert_history"."created_at"'))}` })
    .from(h)
    .where(
      and(
        eq(h.tenantId, tenantId),
        q.kind ? eq(h.kind, q.kind) : undefined,
        after ? sql`(${h.createdAt}, ${h.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(h.createdAt), desc(h.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ row }) => ({
      id: row.id,
      ruleId: row.ruleId,
      automationId: row.automationId,
      automationName: row.automationName,
      kind: row.kind,
      message: row.message,
      count: row.count,
      runsUrl: row.runsUrl,
      channel: row.channel,
      status: row.status,
      error: row.error,
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.row.id) : null,
  };
}
