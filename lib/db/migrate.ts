import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { Logger, runMigrations } from "graphile-worker";
import path from "node:path";
import postgres from "postgres";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

// graphile-worker logs each of its migration steps at info level; keep start-up output readable.
const warningsOnly = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.warn(`[graphile-worker] ${message}`);
});

/** Applies our drizzle migrations and graphile-worker's own schema. Safe to run repeatedly. */
export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
  await runMigrations({ connectionString: url, logger: warningsOnly });
}
