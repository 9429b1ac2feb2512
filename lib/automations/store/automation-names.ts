import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automations } from "@/lib/db/schema";

/** Names of automations by id, for lists that show waits or tasks of several automations. */
export async function automationNames(tenantId: string, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: automations.id, name: automations.name })
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), inArray(automations.id, unique)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The shop's automations for the runs filter, by name (published ones only: drafts have no runs). */
export async function automationOptions(tenantId: string): Promise<{ id: string; name: string }[]> {
  return getDb()
    .select({ id: automations.id, name: automations.name })
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), sql`${automations.version} > 0`))
    .orderBy(asc(automations.name), asc(automations.id))
    .limit(500);
}
