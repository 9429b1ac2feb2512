import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { Audience } from "@/lib/automations/nodes/triggers/triggers";

/**
 * An audience filter over the shop's customers, as SQL on `entities` (alias `e`). Every field is
 * optional and all given ones must hold:
 *
 * | field              | a customer matches when                                      |
 * | ------------------ | ------------------------------------------------------------ |
 * | `tagsInclude`      | they have at least one of these tags                          |
 * | `tagsExclude`      | they have none of these tags                                  |
 * | `acceptsMarketing` | their `acceptsMarketing` equals it                            |
 * | `minTotalSpent`    | `totalSpent` ≥ it                                             |
 * | `minOrdersCount`   | `ordersCount` ≥ it                                            |
 * | `createdWithinDays`| their `createdAt` (or when the record was created) is within that many days of `at` |
 *
 * Customer data is checked by its zod schema whenever it is written, so the casts are safe.
 */
export function audienceWhere(tenantId: string, audience: Audience, at: Date): SQL {
  const parts: SQL[] = [sql`e.tenant_id = ${tenantId}`, sql`e.domain = 'customer'`];
  if (audience.tagsInclude?.length) parts.push(sql`e.tags && ${toArray(audience.tagsInclude)}`);
  if (audience.tagsExclude?.length) parts.push(sql`not (e.tags && ${toArray(audience.tagsExclude)})`);
  if (audience.acceptsMarketing !== undefined) {
    parts.push(sql`coalesce((e.data->>'acceptsMarketing')::boolean, false) = ${audience.acceptsMarketing}`);
  }
  if (audience.minTotalSpent !== undefined) {
    parts.push(sql`coalesce((e.data->>'totalSpent')::numeric, 0) >= ${audience.minTotalSpent}`);
  }
  if (audience.minOrdersCount !== undefined) {
    parts.push(sql`coalesce((e.data->>'ordersCount')::numeric, 0) >= ${audience.minOrdersCount}`);
  }
  if (audience.createdWithinDays !== undefined) {
    const since = new Date(at.getTime() - audience.createdWithinDays * 86_400_000);
    parts.push(sql`coalesce((e.data->>'createdAt')::timestamptz, e.created_at) >= ${since.toISOString()}`);
  }
  return sql.join(parts, sql` and `);
}

function toArray(values: string[]): SQL {
  return sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, "\\$&")}"`).join(",")}}`}::text[]`;
}

/** How many customers the audience matches right now (shown before publishing). */
export async function audienceSize(db: DbOrTx, tenantId: string, audience: Audience, at = new Date()) {
  const [row] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from entities e where ${audienceWhere(tenantId, audience, at)}`,
  );
  return row?.n ?? 0;
}
