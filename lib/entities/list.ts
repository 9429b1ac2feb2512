import { and, desc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { afterCursor, decodeCursor, encodeCursor } from "@/lib/pagination/cursor";
import { type Domain } from "@/lib/domains/domains";
import { parseDomain } from "./service";

const listQuery = z.object({
  status: z.string().max(50).optional(),
  q: z.string().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface EntityListItem {
  id: string;
  domain: Domain;
  data: Record<string, unknown>;
  status: string | null;
  tags: string[];
  updatedAt: string;
}

/** Lists a domain's entities, most recently changed first, with keyset pagination. */
export async function listEntities(
  tenantId: string,
  domainName: string,
  query: z.input<typeof listQuery> = {},
): Promise<{ items: EntityListItem[]; nextCursor: string | null }> {
  const domain = parseDomain(domainName);
  const { status, q, cursor, limit } = parseOrThrow(listQuery, query, "The list query is invalid");
  const after = cursor ? decodeCursor(cursor) : null;
  const search = q?.trim();
  const rows = await getDb()
    .select()
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, tenantId),
        eq(entities.domain, domain),
        status ? eq(entities.status, status) : undefined,
        search
          ? or(
              sql`${entities.id} ilike ${`%${search}%`}`,
              sql`${entities.email} ilike ${`%${search}%`}`,
              sql`${entities.data}->>'number' ilike ${`%${search}%`}`,
              sql`${entities.data}->>'name' ilike ${`%${search}%`}`,
            )
          : undefined,
        afterCursor(entities.updatedAt, entities.id, after),
      ),
    )
    .orderBy(desc(entities.updatedAt), desc(entities.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      domain,
      data: r.data,
      status: r.status,
      tags: r.tags,
      updatedAt: r.updatedAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.updatedAt, last.id) : null,
  };
}
