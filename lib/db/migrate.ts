import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { runMigrations } from "graphile-worker";
import path from "node:path";
import postgres from "postgres";
import { workerLogger } from "@/lib/worker/logger";
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/** Applies our drizzle migrations and graphile-worker's own schema. Safe to run repeatedly. */
export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
  await runMigrations({ connectionString: url, logger: workerLogger });
}
