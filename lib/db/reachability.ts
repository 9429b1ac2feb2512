import postgres from "postgres";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";
import { dropDb } from "./client";

/*
 * Whether the web server can reach Postgres now. A network partition does not refuse connections:
 * it swallows them, and a query on a pooled connection then waits for minutes of TCP retries. So
 * the web server asks `select 1` every second on a connection of its own (`watchDatabase`,
 * started by server/index.ts), never queued behind the pool's work. A probe unanswered for 3 s
 * marks the database unreachable and drops the pool, which fails the queries stuck in it at once.
 * While unreachable, API requests are answered 503 with a sentence without touching the pool
 * (`assertDatabaseReachable`), and each probe connects afresh, so the first one after the
 * partition heals brings the server back by itself. A tick that comes late (the event loop held
 * up by a long task, a starved machine) gives no verdict: the probe's answer may be waiting
 * behind it.
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

/** Probes every `everyMs`; one unanswered after `timeoutMs` marks the database unreachable. Returns a stop function. */
export function watchDatabase({ everyMs = 1_000, timeoutMs = 3_000 } = {}): () => void {
  let prober: postgres.Sql | null = null;
  let probeStartedAt: number | null = null;
  let lastTick = Date.now();
  const unreachable = (reason: unknown) => {
    if (databaseReachable())
      log().error(
        { err: reason },
        "The database cannot be reached; API requests are answered 503 until it can.",
      );
    state.__tillflowDbReachable = false;
    // The stuck queries fail now, and the next probe connects afresh.
    void prober?.end({ timeout: 0 }).catch(() => {});
    prober = null;
    probeStartedAt = null;
    dropDb();
  };
  const tick = () => {
    const now = Date.now();
    const late = now - lastTick > everyMs + 500;
    lastTick = now;
    if (probeStartedAt !== null) {
      if (!late && now - probeStartedAt > timeoutMs)
        unreachable(new Error(`select 1 got no answer within ${timeoutMs} ms`));
      return;
    }
    probeStartedAt = now;
    const client = (prober ??= postgres(config().DATABASE_URL!, { max: 1, onnotice: () => {} }));
    client`select 1`.then(
      () => {
        if (client !== prober) return;
        probeStartedAt = null;
        if (!databaseReachable())
          log().info("The database is reachable again; API requests are answered as usual.");
        state.__tillflowDbReachable = true;
      },
      (error: unknown) => {
        if (client === prober) unreachable(error);
      },
    );
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    void prober?.end({ timeout: 0 }).catch(() => {});
  };
}
