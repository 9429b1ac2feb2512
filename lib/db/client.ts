import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

function connect(url: string) {
  const client = postgres(url, {
    max: Number(process.env.DB_POOL_MAX ?? 10),
    onnotice: () => {},
    // Postgres `bigint` counts arrive as strings by default; ours fit in a JS number.
    types: { bigint: postgres.BigInt },
  });
  return drizzle(client, { schema });
}

export type Db = ReturnType<typeof connect>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** A function that reads or writes can take either the pool or an open transaction. */
export type DbOrTx = Db | Tx;

// Kept on globalThis so Next.js hot reloads in development reuse one pool instead of leaking one each.
const holder = globalThis as unknown as { __tillflowDb?: { url: string; db: Db } };

/**
 * The shared drizzle client for `process.env.DATABASE_URL`. Processes call `ensureDatabaseUrl()`
 * at start-up (the web server from `instrumentation.ts`), so the URL is known by the first query.
 */
export function getDb(): Db {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: call ensureDatabaseUrl() at process start.");
  if (holder.__tillflowDb?.url !== url) holder.__tillflowDb = { url, db: connect(url) };
  return holder.__tillflowDb.db;
}

export async function closeDb(): Promise<void> {
  const current = holder.__tillflowDb;
  holder.__tillflowDb = undefined;
  if (current) await current.db.$client.end({ timeout: 5 });
}
