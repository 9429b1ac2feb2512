import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { BACKLOG_PRIORITY } from "./fair-share";

/** One shop's backlog waiting for a worker: for `tillflow queue` and `tillflow_shop_backlog`. */
export interface ShopBacklog {
  tenantId: string;
  slug: string | null;
  /** Backlog jobs waiting (not yet taken by a worker). */
  waiting: number;
  /** How long the oldest of them has waited, in seconds. */
  oldestSeconds: number;
  weight: number;
}

/**
 * The shops with the most backlog waiting, most first, at most `limit`. Reads the waiting
 * backlog once (one index range of `tillflow_jobs_backlog_by_shop`): a scrape or a command, not
 * a hot path. A backlog job came when it was created (its `run_at` is its fair-share tag).
 */
export async function busiestShops(db: DbOrTx, limit = 10): Promise<ShopBacklog[]> {
  const rows = await db.execute<{
    tenant_id: string;
    slug: string | null;
    waiting: number;
    oldest: number;
    weight: number | null;
  }>(sql`
    select b.tenant_id, t.slug, b.waiting, b.oldest, t.queue_weight as weight
    from (
      select j.payload->>'tenantId' as tenant_id, count(*)::int as waiting,
             extract(epoch from now() - min(j.created_at))::float8 as oldest
      from graphile_worker._private_jobs j
      where j.is_available and j.priority = ${BACKLOG_PRIORITY} and j.payload->>'tenantId' is not null
      group by 1
      order by 2 desc
      limit ${limit}
    ) b
    left join tenants t on t.id = b.tenant_id::uuid
    order by b.waiting desc`);
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    slug: r.slug,
    waiting: r.waiting,
    oldestSeconds: Math.max(0, r.oldest),
    weight: r.weight ?? 1,
  }));
}
