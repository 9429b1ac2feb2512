import { dataRoot, databaseUrl, startOrFindEmbedded, type EmbeddedCluster } from "./embedded";
import path from "node:path";
import postgres from "postgres";

let cluster: EmbeddedCluster | null = null;

/**
 * Makes sure `process.env.DATABASE_URL` points at a live database and returns it.
 * With `DATABASE_URL` already set this does nothing; otherwise it finds or starts the embedded
 * cluster under `.data/pg` and creates the `tillflow` database on first use.
 */
export async function ensureDatabaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  cluster = await startOrFindEmbedded(path.join(dataRoot(), "pg"));
  await createDatabaseIfMissing(cluster.serverUrl, "tillflow");
  process.env.DATABASE_URL = databaseUrl(cluster.serverUrl, "tillflow");
  return process.env.DATABASE_URL;
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
