import { and, desc, eq, ilike, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { registry } from "@/lib/automations/nodes/registry";
import { afterCursor, decodeCursor, encodeCursor } from "@/lib/pagination/cursor";
import type { AutomationRow } from "./read";

export const listQuery = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(["draft", "active", "paused", "archived"]).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export interface AutomationListItem {
  id: string;
  name: string;
  status: AutomationRow["status"];
  version: number;
  triggerTypes: string[];
  updatedAt: string;
  lastRunAt: string | null;
  waitingRuns: number;
  /** A platform built-in (can be paused and reset, never archived). */
  builtin: boolean;
}

/** A page of the automations list, newest change first; `nextCursor` is null on the last page. */
export interface AutomationPage {
  items: AutomationListItem[];
  nextCursor: string | null;
}

export async function listAutomations(tenantId: string, query: unknown = {}): Promise<AutomationPage> {
  const { q, status, cursor, limit } = parseOrThrow(listQuery, query, "The list query is invalid");
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await getDb()
    .select({
      id: automations.id,
      name: automations.name,
      status: automations.status,
      version: automations.version,
      graph: automations.draftGraph,
      builtinSlug: automations.builtinSlug,
      updatedAt: automations.updatedAt,
      lastRunAt: sql<Date | null>`(select max(created_at) from automation_runs r where r.tenant_id = ${tenantId} and r.automation_id = "automations"."id")`,
      waitingRuns: sql<number>`(select count(*)::int from automation_runs r where r.tenant_id = ${tenantId} and r.automation_id = "automations"."id" and r.status = 'waiting')`,
    })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        status ? eq(automations.status, status) : sql`${automations.status} <> 'archived'`,
        q ? ilike(automations.name, `%${q.replace(/[%_\\]/g, "\\$&")}%`) : undefined,
        afterCursor(automations.updatedAt, automations.id, after),
      ),
    )
    .orderBy(desc(automations.updatedAt), desc(automations.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const items: AutomationListItem[] = page.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    version: r.version,
    triggerTypes: r.graph.nodes
      .filter((n) => registry.get(n.type)?.category === "trigger")
      .map((n) => n.type),
    updatedAt: r.updatedAt.toISOString(),
    lastRunAt: r.lastRunAt ? new Date(r.lastRunAt).toISOString() : null,
    waitingRuns: r.waitingRuns,
    builtin: r.builtinSlug !== null,
  }));
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.updatedAt, last.id) : null };
}
