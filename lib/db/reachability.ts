import { sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log/logger";
import { dropDb, getDb } from "./client";

/*
 * Whether the web server can reach Postgres now. A network partition does not refuse connections:
 * it swallows them, and a query on a pooled connection then waits for minutes of TCP retries. So
 * the web server asks `select 1` every second (`watchDatabase`, started by server/index.ts); one
 * that has not answered in 2 s marks the database unreachable and drops the pool, which fails the
 * queries stuck in it at once. While unreachable, API requests are answered 503 with a sentence
 * without touching the pool (`assertDatabaseReachable`), and each probe opens a fresh connection,
 * so the first one after the partition heals brings the server back by itself.
 *
 * Kept on `globalThis`: the web server loads this module twice (Next.js's bundle and its own
 * routes, server/direct-routes.ts), and both must read the one state.
 */
const state = globalThis as unknown as { __tillflowDbReachable?: boolean };

/** Errors that mean "the server is not reachable right now" (restarting, starting up, gone away). */
const UNAVAILABLE = new Set([
  "57P01", // admin shutdown (a fast or immediate stop cut the connection)
  "57P02", // crash shutdown
  "57P03", // cannot connect now: starting up or in recovery
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** True when `error` (or an error it wraps) says the database is unavailable for now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The 503 an API request gets while Postgres cannot be reached. */
export const databaseUnavailable = () =>
  new AppError(
    503,
    "unavailable",
    "Tillflow can't reach its database right now. Try again in a few seconds.",
  );

/** False only while a watching process found the database unreachable (always true elsewhere). */
export function databaseReachable(): boolean {
  return state.__tillflowDbReachable !== false;
}

/** Throws the 503 while the database is known to be unreachable. */
export function assertDatabaseReachable(): void {
  if (!databaseReachable()) throw databaseUnavailable();
}

/** Resolves with `work`'s answer, or rejects after `ms`. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Probes every `everyMs`; a probe unanswered after `timeoutMs` marks the database unreachable. Returns a stop function. */
export function watchDatabase({ everyMs = 1_000, timeoutMs = 2_000 } = {}): () => void {
  let probing = false;
  const probe = async () => {
    if (probing) return;
    probing = true;
    try {
      await within(getDb().execute(sql`select 1`), timeoutMs);
      if (!databaseReachable())
        log().info("The database is reachable again; API requests are answered as usual.");
      state.__tillflowDbReachable = true;
    } catch (error) {
      if (databaseReachable())
        log().error(
          { err: error },
          "The database cannot be reached; API requests are answered 503 until it can.",
        );
      state.__tillflowDbReachable = false;
      // The stuck queries fail now, and the next probe connects afresh.
      dropDb();
    } finally {
      probing = false;
    }
  };
  const timer = setInterval(() => void probe(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
