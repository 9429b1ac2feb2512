import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

/** How long a connection's deliveries are listed (and their bodies kept). */
export const DELIVERY_DAYS = 30;

/** Rows deleted per statement, so a large backlog is removed without one long lock. */
const BATCH = 5_000;

/**
 * Deletes deliveries received more than DELIVERY_DAYS ago (the daily `connection_prune` job):
 * each keeps the store's whole body, so a busy store's list would otherwise grow by its size
 * every day. The records they made stay. Returns how many were deleted.
 */
export async function pruneDeliveries(now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - DELIVERY_DAYS * 24 * 3_600_000);
  let deleted = 0;
  for (;;) {
    const rows = await getDb().execute<{ id: string }>(sql`
      delete from connection_deliveries where id in (
        select id from connection_deliveries where received_at < ${before.toISOString()}::timestamptz limit ${BATCH}
      )
      returning id`);
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
