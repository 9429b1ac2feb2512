import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/pagination/precise-cursor";
import { getDb } from "@/lib/db/client";
import { auditEvents } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { AUDIT_ACTIONS, AUDIT_KINDS, type AuditKind } from "./words";

/** One entry of the audit log, as the API and the Activity page show it. */
export interface AuditItem {
  id: string;
  at: string;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  detail: Record<string, unknown>;
}

const KIND_NAMES = Object.keys(AUDIT_KINDS) as AuditKind[];

export const auditQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** One action (`automation.published`) or one kind of them (`automations`, `users`, …). */
  action: z
    .string()
    .refine(
      (a) => (AUDIT_ACTIONS as readonly string[]).includes(a) || (KIND_NAMES as string[]).includes(a),
      `must be one of ${[...KIND_NAMES, ...AUDIT_ACTIONS].join(", ")}`,
    )
    .optional(),
  subjectId: z.string().min(1).max(200).optional(),
});

/**
 * The shop's audit log, newest first, keyset-paginated on (created_at, id) with microsecond
 * cursors (entries written in one transaction share one `now()`). One range scan of
 * `audit_events_tenant_idx`; there is no OFFSET and no count.
 */
export async function listAudit(
  tenantId: string,
  query: unknown = {},
): Promise<{ items: AuditItem[]; nextCursor: string | null }> {
  const q = parseOrThrow(auditQuery, query, "The audit query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  const a = auditEvents;
  const actions = q.action
    ? q.action in AUDIT_KINDS
      ? AUDIT_KINDS[q.action as AuditKind].actions
      : [q.action]
    : null;
  const rows = await getDb()
    .select({ row: a, at: sql<string>`${sql.raw(preciseTimestamp('"audit_events"."created_at"'))}` })
    .from(a)
    .where(
      and(
        eq(a.tenantId, tenantId),
        actions ? inArray(a.action, [...actions]) : undefined,
        q.subjectId ? eq(a.subjectId, q.subjectId) : undefined,
        after ? sql`(${a.createdAt}, ${a.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ row, at }) => ({
      id: row.id,
      at,
      actor: row.actor,
      action: row.action,
      subjectType: row.subjectType,
      subjectId: row.subjectId,
      detail: row.detail,
    })),
    nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.row.id) : null,
  };
}
