import fs from "node:fs";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import postgres from "postgres";
import { closeDb, getDb } from "@/lib/db/client";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { dataRoot, databaseUrl, restartEmbeddedImmediately, startOrFindEmbedded } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/migrate";

/**
 * A fresh, migrated database for one benchmark: on the embedded cluster under `.data/bench-pg`
 * (same settings as the demo shop's, not the tests' fsync-off ones; `cluster` names another, as
 * the chaos suite's `chaos-pg`), or on DATABASE_URL's server. Sets DATABASE_URL until `drop()`,
 * which puts back the one before (so a bench can take several). `restart` crashes and restarts
 * the cluster (`pg_ctl restart -m immediate`) when this process started it; null on a server
 * someone else runs (DATABASE_URL's, or a cluster another process started).
 */
export async function benchDatabase(
  name: string,
  options: { cluster?: string } = {},
): Promise<{ url: string; restart: (() => Promise<void>) | null; drop(): Promise<void> }> {
  const previousUrl = process.env.DATABASE_URL;
  let serverUrl: string;
  let restart: (() => Promise<void>) | null = null;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    serverUrl = databaseUrl(process.env.DATABASE_URL, "postgres");
  } else {
    const dataDir = path.join(dataRoot(), options.cluster ?? "bench-pg");
    const cluster = await startOrFindEmbedded(dataDir);
    serverUrl = cluster.serverUrl;
    stop = cluster.stop;
    if (cluster.owned) restart = () => restartEmbeddedImmediately(dataDir);
  }
  const database = `bench_${name}_${Date.now()}`;
  await createDatabaseIfMissing(serverUrl, database);
  const url = databaseUrl(serverUrl, database);
  await migrateDatabase(url);
  process.env.DATABASE_URL = url;
  return {
    url,
    restart,
    async drop() {
      await closeDb();
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${database}" with (force)`);
      await sql.end();
      await stop();
      if (previousUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previousUrl;
    },
  };
}

/** The `n` a `count(*)::int as n` query returns. */
export async function count(query: SQL): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(query);
  return row!.n;
}

export type Metrics = Record<string, number | string | boolean>;

/**
 * Prints a table and one JSON line, and keeps the JSON under bench/results/. `table: false` when
 * the bench printed a table of its own (`bench -- workers`: one column per worker count).
 */
export function report(name: string, metrics: Metrics, options: { table?: boolean } = {}): void {
  const width = Math.max(...Object.keys(metrics).map((k) => k.length));
  if (options.table !== false) console.log(`\n${name}`);
  for (const [key, value] of Object.entries(metrics)) {
    if (options.table === false) break;
    const shown = typeof value === "number" ? (Number.isInteger(value) ? value : value.toFixed(2)) : value;
    console.log(`  ${key.padEnd(width)}  ${shown}`);
  }
  const json = JSON.stringify({ bench: name, at: new Date().toISOString(), ...metrics });
  console.log(json);
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(path.join("bench/results", `${name}.json`), `${json}\n`);
}

export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000}s.`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
