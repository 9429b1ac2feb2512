import { sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per running worker process, refreshed every few seconds. `/api/health` reads it, and the
 * sweeper releases the jobs of workers silent for over a minute (a SIGKILLed graphile-worker
 * otherwise keeps its jobs locked for four hours).
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  workerId: text("worker_id").primaryKey(),
  hostname: text("hostname").notNull(),
  pid: integer("pid").notNull(),
  /** The ids graphile-worker locks jobs with (the pool's and each worker's), for `forceUnlockWorkers`. */
  lockIds: text("lock_ids")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  stoppedAt: timestamp("stopped_at", { withTimezone: true }),
});
