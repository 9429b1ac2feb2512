import {
  ensureDatabaseUrl,
  stopOwnedDatabase,
  surviveDatabaseRestarts,
  whileDatabaseUnavailable,
} from "@/lib/db/connection";
import { closeDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { startWorker } from "./run";

/** `npm run worker` / `tillflow worker`: runs jobs until SIGINT or SIGTERM, then stops cleanly. */
export async function main(): Promise<void> {
  // The worker runs many legs at once; give its drizzle pool more room than the web server's.
  process.env.DB_POOL_MAX ??= "20";
  surviveDatabaseRestarts();
  const url = await ensureDatabaseUrl();
  // A worker started while Postgres restarts (a supervisor bringing it back after a crash) waits
  // for the database instead of exiting.
  await whileDatabaseUnavailable("migrating", () => migrateDatabase(url));
  const worker = await whileDatabaseUnavailable("starting the worker", () =>
    startWorker({ connectionString: url }),
  );
  console.log(`Worker ${worker.workerId} is running. Press Ctrl-C to stop.`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Worker received ${signal}; finishing running jobs…`);
    await worker.stop();
    await closeDb();
    await stopOwnedDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error("The worker could not start:", error);
    process.exit(1);
  });
}
