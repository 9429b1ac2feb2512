import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One-time moves of data that SQL cannot do (it needs the app: a key, a parser), run by
 * `migrateDatabase` after the SQL migrations. A move is recorded once it has finished, so a start
 * skips it from then on; one cut short runs again (moves are idempotent).
 */
export const dataMoves = pgTable("data_moves", {
  name: text("name").primaryKey(),
  doneAt: timestamp("done_at", { withTimezone: true }).notNull().defaultNow(),
});
