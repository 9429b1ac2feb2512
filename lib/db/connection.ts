import { dataRoot, databaseUrl, startOrFindEmbedded, type EmbeddedCluster } from "./embedded";
import path from "node:path";
import postgres from "postgres";
import { recycleDb } from "./client";
import { messageOf } from "@/lib/errors";
import { config, setEnv } from "@/lib/config/config";
import { log } from "@/lib/log/logger";
import { isDatabaseUnavailable } from "./reachability";

let cluster: EmbeddedCluster | null = null;

/**
 * Makes sure `DATABASE_URL` points at a live database and returns it.
 * With `DATABASE_URL` already set this does nothing; otherwise it finds or starts the embedded
 * cluster under `.data/pg` and creates the `tillflow` database on first use.
 */
export async function ensureDatabaseUrl(): Promise<string> {
  const given = config().DATABASE_URL;
  if (given) return given;
  cluster = await startOrFindEmbedded(path.join(dataRoot(), "pg"));
  await createDatabaseIfMissing(cluster.serverUrl, "tillflow");
  const url = databaseUrl(cluster.serverUrl, "tillflow");
  // Recorded in the environment: the processes this one starts (the launcher's) inherit it.
  setEnv("DATABASE_URL", url);
  return url;
}

/** Stops the embedded cluster if this process started it. */
export async function stopOwnedDatabase(): Promise<void> {
  if (cluster?.owned) await cluster.stop();
  cluster = null;
}

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;

export async function createDatabaseIfMissing(
  serverUrl: string,
  name: string,
  template?: string,
): Promise<void> {
  if (!SAFE_NAME.test(name) || (template && !SAFE_NAME.test(template))) {
    throw new Error(`Refusing to create database with unsafe name ${JSON.stringify(name)}.`);
  }
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as found from pg_database where datname = ${name}`;
    if (!row) await sql.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  } finally {
    await sql.end();
  }
}

/** Drops and recreates the `tillflow` database of the embedded cluster (used by the e2e launcher). */
export async function resetEmbeddedDatabase(): Promise<void> {
  if (!cluster) throw new Error("resetEmbeddedDatabase() needs the embedded cluster; DATABASE_URL is set.");
  const sql = postgres(cluster.serverUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "tillflow" with (force)`);
  } finally {
    await sql.end();
  }
  await createDatabaseIfMissing(cluster.serverUrl, "tillflow");
}

/**
 * Runs `work`, and while it fails because the database is unavailable (a Postgres restart, a
 * server still starting), tries again every second for up to `timeoutMs` (default 2 minutes).
 * Other errors are thrown at once.
 */
export async function whileDatabaseUnavailable<T>(
  what: string,
  work: () => Promise<T>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      if (attempt === 1) {
        const message = messageOf(error);
        log().warn(
          `The database is not available yet (${message}); ${what} will be tried again every second.`,
        );
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

/** postgres.js's write-after-close race (porsager/postgres#1154, #1208): a TypeError in a timer. */
function isWriteAfterClose(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /reading 'write'/.test(error.message) &&
    /nextWrite/.test(error.stack ?? "") &&
    /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? "")
  );
}

/**
 * For long-running processes we own (the worker, the chaos suite): postgres.js 3.4.9 can throw
 * from a timer when a connection closes with a write still buffered (a Postgres restart), which
 * would end the process although the query it belonged to has already failed and been retried.
 * That one error is logged and the pool replaced; any other uncaught exception still ends the
 * process with its stack, as Node would.
 */
export function surviveDatabaseRestarts(): void {
  process.on("uncaughtException", (error) => {
    if (isWriteAfterClose(error)) {
      log().warn(
        "A database connection closed with a write pending (Postgres restarted?); opening a new pool.",
      );
      recycleDb();
      return;
    }
    log().fatal({ err: error }, "Uncaught exception; stopping.");
    process.exit(1);
  });
}
