import "server-only";
import fs from "node:fs";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { runMigrations } from "graphile-worker";
import path from "node:path";
import postgres from "postgres";
import { moveSecretsToCredentials } from "@/lib/credentials/move-secrets";
import { fillSlackHosts } from "@/lib/credentials/slack-hosts";
import { taskPayloads } from "@/lib/jobs";
import { INSTALL_FAIR_SHARE } from "@/lib/queue/fair-share";
import * as schema from "./db/schema/index";
import { workerLogger } from "@/lib/worker/logger";
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/**
 * Applies our drizzle migrations and graphile-worker's own schema, then tunes its jobs table.
 * Safe to run repeatedly.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {}, types: { bigint: postgres.BigInt } });
  try {
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await moveSecretsToCredentials(db);
    await fillSlackHosts(db);
    await runMigrations({ connectionString: url, logger: workerLogger });
    await tuneJobQueue(client);
  } finally {
    await client.end();
  }
}

/**
 * graphile-worker's jobs table is a queue: every job is inserted, locked and deleted within
 * moments, so it piles up dead rows far faster than autovacuum's defaults (20 % of the table)
 * clean them, and its job fetch — run on every new job — reads each dead row's index entry again.
 * `bench -- live` found 33,000 dead entries read per fetch (8 ms) after a few minutes of traffic.
 * Vacuumed and analyzed after every 1,000 changes instead, at full speed. Storage parameters
 * only: idempotent, and they survive graphile-worker's own migrations.
 */
async function tuneJobQueue(client: postgres.Sql): Promise<void> {
  await client.unsafe(`
    alter table graphile_worker._private_jobs set (
      autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
      autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000,
      autovacuum_vacuum_cost_delay = 0)`);
  // Runs and waits add their jobs straight into the jobs table (freshJobsSql, createWaits), which
  // needs each task's row; add_jobs makes it on first use, and so does this, for every task.
  await client.unsafe(
    `insert into graphile_worker._private_tasks (identifier) select unnest($1::text[]) on conflict do nothing`,
    [Object.keys(taskPayloads)],
  );
  // Fair share between shops reads and orders graphile-worker's jobs: installed once its schema is.
  for (const statement of INSTALL_FAIR_SHARE) await client.unsafe(statement);
}

export interface SchemaStatus {
  /** Migrations this code ships (drizzle/meta/_journal.json). */
  shipped: number;
  /** Tags of the shipped migrations the database has not applied yet, oldest first. */
  pending: string[];
}

/**
 * Which of this code's migrations the database still lacks, read the way drizzle's migrator
 * decides: a migration is applied when its journal time is at or before the newest `created_at`
 * in `drizzle.__drizzle_migrations`. A database *ahead* of the code (a newer release migrated it,
 * an older worker still runs) is not behind: migrations are expand-first, so old code keeps working.
 */
export async function schemaStatus(url: string): Promise<SchemaStatus> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
    entries: { when: number; tag: string }[];
  };
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [table] = await client<{ found: boolean }[]>`
      select to_regclass('drizzle.__drizzle_migrations') is not null as found`;
    let newest = -Infinity;
    if (table?.found) {
      const [row] = await client<{ newest: string | null }[]>`
        select max(created_at)::text as newest from drizzle.__drizzle_migrations`;
      if (row?.newest != null) newest = Number(row.newest);
    }
    return {
      shipped: journal.entries.length,
      pending: journal.entries.filter((e) => e.when > newest).map((e) => e.tag),
    };
  } finally {
    await client.end();
  }
}

/** Thrown when a process that does not migrate finds the schema behind its code. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `The database schema is behind this code: ${pending.length} migration${pending.length === 1 ? "" : "s"} not applied (${pending.join(", ")}). ` +
        "Run `tillflow migrate` against this DATABASE_URL first, or start the worker with `--migrate`.",
    );
    this.name = "SchemaBehindError";
  }
}

/** Refuses (SchemaBehindError) when the database lacks any of this code's migrations. */
export async function assertSchemaCurrent(url: string): Promise<void> {
  const { pending } = await schemaStatus(url);
  if (pending.length > 0) throw new SchemaBehindError(pending);
}
