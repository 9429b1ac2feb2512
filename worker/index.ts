import "@/lib/config/check-at-start";
import {
  ensureDatabaseUrl,
  stopOwnedDatabase,
  surviveDatabaseRestarts,
  whileDatabaseUnavailable,
} from "@/lib/db/connection";
import { closeDb } from "@/lib/db/client";
import { assertSchemaCurrent, migrateDatabase, SchemaBehindError } from "@/lib/migrate";
import { config, defaultEnv } from "@/lib/config/config";
import { log } from "@/lib/log/logger";
import { startWorker } from "./run";

export interface WorkerMainOptions {
  /**
   * Apply migrations before starting. Default: only when there is no `DATABASE_URL` (the embedded
   * database of one machine, where nobody else migrates), or with `TILLFLOW_MIGRATE=1`. Against a
   * `DATABASE_URL` a worker never changes the schema on its own: N workers starting at once on
   * a rolling deploy must not race a release's migration; `tillflow migrate` runs it once, first.
   */
  migrate?: boolean;
}

/**
 * `npm run worker` / `tillflow worker [--migrate]`: runs jobs until SIGINT or SIGTERM, then stops
 * cleanly. Against a `DATABASE_URL` whose schema lacks one of this code's migrations it refuses
 * to start (exit code 2) and names them, rather than run new code on an old schema.
 */
export async function main(options: WorkerMainOptions = {}): Promise<void> {
  // The worker runs many legs at once; give its drizzle pool more room than the web server's.
  defaultEnv("DB_POOL_MAX", "20");
  defaultEnv("DB_APPLICATION_NAME", "tillflow-worker");
  // A leg's batch statement carries up to WORKER_BATCH_SIZE legs: far more room than a request's.
  defaultEnv("DB_STATEMENT_TIMEOUT_MS", "120000");
  surviveDatabaseRestarts();
  const external = Boolean(config().DATABASE_URL);
  const migrate = options.migrate ?? (!external || config().TILLFLOW_MIGRATE);
  const url = await ensureDatabaseUrl();
  // A worker started while Postgres restarts (a supervisor bringing it back after a crash) waits
  // for the database instead of exiting.
  try {
    if (migrate) await whileDatabaseUnavailable("migrating", () => migrateDatabase(url));
    else await whileDatabaseUnavailable("checking the schema", () => assertSchemaCurrent(url));
  } catch (error) {
    if (!(error instanceof SchemaBehindError)) throw error;
    log().fatal(error.message);
    await stopOwnedDatabase();
    process.exit(2);
  }
  const worker = await whileDatabaseUnavailable("starting the worker", () =>
    startWorker({ connectionString: url }),
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log().info({ signal }, `Worker received ${signal}; finishing running jobs…`);
    await worker.stop();
    await closeDb();
    await stopOwnedDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  // Only now: a supervisor that reads this line and stops the worker at once gets a clean stop.
  log().info({ workerId: worker.workerId }, `Worker ${worker.workerId} is running. Press Ctrl-C to stop.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main({ migrate: process.argv.includes("--migrate") ? true : undefined }).catch((error: unknown) => {
    log().fatal({ err: error }, "The worker could not start.");
    process.exit(1);
  });
}
