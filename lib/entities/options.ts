import { and, desc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { isDomain } from "@/lib/domains/domains";
import { parseDomain } from "./service";
import { entityLabel } from "@/lib/domains/labels";

const optionsQuery = z.object({
  query: z.string().max(200, "the search is longer than 200 characters").optional(),
  limit: z.number().int().min(1).max(50).default(20),
});

/** `%` and `_` typed into a search mean themselves, not LIKE wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Up to `limit` records of `domain` for a picker, most recently changed first, matching `query`
 * in the id, email, order number, name or title. An entityless domain (webhook, schedule, later)
 * has no records to pick: `[]`. An unknown domain is a 404.
 */
export async function entityOptions(
  tenantId: string,
  domain: string,
  query?: string,
  limit = 20,
): Promise<{ id: string; label: string }[]> {
  if (domain === "webhook" || domain === "schedule" || domain === "later") return [];
  const parsedDomain = isDomain(domain) ? domain : parseDomain(domain);
  const input = parseOrThrow(optionsQuery, { query, limit }, "The search is invalid");
  const search = input.query?.trim();
  const pattern = search ? likePattern(search) : null;
  const rows = await getDb()
    .select({ id: entities.id, data: entities.data, status: entities.status })
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, tenantId),
        eq(entities.domain, parsedDomain),
        pattern
          ? or(
              sql`${entities.id} ilike ${pattern}`,
              sql`${entities.email} ilike ${pattern}`,
              sql`${entities.data}->>'number' ilike ${pattern}`,
              sql`${entities.data}->>'name' ilike ${pattern}`,
              sql`${entities.data}->>'title' ilike ${pattern}`,
            )
          : undefined,
      ),
    )
    .orderBy(desc(entities.updatedAt), desc(entities.id))
    .limit(input.limit);
  return rows.map((row) => ({ id: row.id, label: entityLabel(parsedDomain, row.id, row.data) }));
}
