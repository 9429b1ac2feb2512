import "server-only";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";

function connect(url: string) {
  const { DB_POOL_MAX, DB_MAX_LIFETIME_SECONDS, DB_APPLICATION_NAME, DB_STATEMENT_TIMEOUT_MS } = config();
  const client = postgres(url, {
    max: DB_POOL_MAX ?? 10,
    // Unset: postgres.js's own 30-60 minutes. Either way the pool is replaced when one ends (below).
    ...(DB_MAX_LIFETIME_SECONDS ? { max_lifetime: DB_MAX_LIFETIME_SECONDS } : {}),
    // Names the process in pg_stat_activity ("tillflow-web", "tillflow-worker").
    connection: {
      application_name: DB_APPLICATION_NAME,
      ...(DB_STATEMENT_TIMEOUT_MS ? { statement_timeout: DB_STATEMENT_TIMEOUT_MS } : {}),
    },
    onnotice: () => {},
    // See recycleAfterClose: a pool whose connection closed under it is replaced by a fresh one.
    onclose: () => recycleAfterClose(client),
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
 * The shared drizzle client for `DATABASE_URL`. Processes call `ensureDatabaseUrl()`
 * at start-up (the web server from `instrumentation.ts`), so the URL is known by the first query.
 */
export function getDb(): Db {
  const url = config().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: call ensureDatabaseUrl() at process start.");
  if (holder.__tillflowDb?.url !== url) holder.__tillflowDb = { url, db: connect(url) };
  return holder.__tillflowDb.db;
}

/**
 * A handle that is always the current pool: each property read asks getDb() at that moment. For
 * a library that keeps the handle it was given for the life of the process (better-auth's
 * adapter): the pool is replaced whenever one of its connections closes (recycleAfterClose), and
 * a handle taken once would hold the ended pool for good.
 */
export const currentDb: Db = new Proxy({} as Db, {
  get(_target, property) {
    const db = getDb();
    const value: unknown = Reflect.get(db, property, db);
    return typeof value === "function" ? value.bind(db) : value;
  },
  has: (_target, property) => Reflect.has(getDb(), property),
});

let lastRecycle = 0;
/** How long a replaced pool still takes queries from requests that had it in hand. */
const RETIRED_POOL_GRACE_MS = 10_000;

/**
 * Replaces the pool after one of its connections closed (a Postgres restart cuts them all).
 * postgres.js 3.4.9 can leave a closed connection with a stale write timer, after which it never
 * sends anything again and its queries hang (porsager/postgres#1208, #1154); a new pool has none
 * of those. The old pool gets 30 s to finish the queries it still runs. At most once every 5 s,
 * and rare otherwise: connections also close when they reach their maximum lifetime (30-60 min).
 */
function recycleAfterClose(pool: Db["$client"]): void {
  const current = holder.__tillflowDb;
  // Only the pool in use: a retired one closing its connections says nothing new.
  if (!current || current.db.$client !== pool || Date.now() - lastRecycle < 5_000) return;
  lastRecycle = Date.now();
  holder.__tillflowDb = undefined;
  log().info("A database connection closed; the pool was replaced with a fresh one.");
  // Ended a little later, not at once: a request that took the pool before the swap (its `db`
  // in hand across awaits) would have its next query refused with CONNECTION_ENDED.
  setTimeout(
    () => void current.db.$client.end({ timeout: 30 }).catch(() => {}),
    RETIRED_POOL_GRACE_MS,
  ).unref();
}

/** Drops the current pool (see recycleAfterClose); the next getDb() opens a new one. */
export function recycleDb(): void {
  const current = holder.__tillflowDb;
  if (current) recycleAfterClose(current.db.$client);
}

/**
 * Drops the current pool at once: its connections are cut and the queries waiting on them fail
 * (`CONNECTION_DESTROYED`). For a database that stopped answering (lib/db/reachability.ts).
 */
export function dropDb(): void {
  const current = holder.__tillflowDb;
  holder.__tillflowDb = undefined;
  if (current) void current.db.$client.end({ timeout: 0 }).catch(() => {});
}

export async function closeDb(): Promise<void> {
  const current = holder.__tillflowDb;
  holder.__tillflowDb = undefined;
  if (current) await current.db.$client.end({ timeout: 5 });
}
