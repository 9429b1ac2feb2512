import postgres from "postgres";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";
import { dropDb } from "./client";

/*
 * Whether the web server can reach Postgres now. A network partition does not refuse connections:
 * it swallows them, and a query on a pooled connection then waits for minutes of TCP retries. So
 * the web server asks `select 1` every second on a connection of its own (`watchDatabase`,
 * started by server/index.ts), never queued behind the pool's work. It gives up on the database —
 * marks it unreachable and drops the pool, which fails the queries stuck in it at once — on
 * either of two verdicts:
 *
 * - a cut: the probe's connection was refused, reset or ended (`isDatabaseUnavailable`);
 * - silence: `slowProbes` probe timeouts (3 s each) in a row, counted while a probe is waiting
 *   and for each probe that answered late, so 9 s with no prompt answer.
 *
 * One slow answer is load, not an outage: dropping the pool then would fail every query in it
 * and answer 503 to every request, under exactly the load that made the probe slow — flapping.
 * Any other error (`too many clients`, a statement timeout, …) comes from a server that answers:
 * it counts like a slow probe. "Too many clients" in particular is never a cut: the pool's
 * connections are open and working, and dropping them would only swap them for connections the
 * server refuses. A prompt answer clears the count.
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

/** What one failed probe says: the connection is gone (`cut`), or the server answered badly (`strike`). */
export function probeVerdict(error: unknown): "cut" | "strike" {
  return isDatabaseUnavailable(error) ? "cut" : "strike";
}

export interface WatchOptions {
  /** How often a probe is sent (default 1 s). */
  everyMs?: number;
  /** How long a probe may take before it counts as slow (default 3 s). */
  timeoutMs?: number;
  /** How many slow probes (timeouts) in a row mean the database is unreachable (default 3). */
  slowProbes?: number;
  /** The database to probe (default `DATABASE_URL`). */
  url?: string;
}

/** Probes every `everyMs`; gives up on a cut or `slowProbes` timeouts in a row. Returns a stop function. */
export function watchDatabase({
  everyMs = 1_000,
  timeoutMs = 3_000,
  slowProbes = 3,
  url = config().DATABASE_URL!,
}: WatchOptions = {}): () => void {
  let prober: postgres.Sql | null = null;
  let probeStartedAt: number | null = null;
  /** Timeouts of the probes before this one, in a row (a prompt answer resets it). */
  let strikes = 0;
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
    strikes = 0;
    dropDb();
  };
  /** The timeouts a probe started at `startedAt` has run through by `now`. */
  const timeoutsOf = (startedAt: number, now: number) => Math.floor((now - startedAt) / timeoutMs);
  const tick = () => {
    const now = Date.now();
    const late = now - lastTick > everyMs + 500;
    lastTick = now;
    if (probeStartedAt !== null) {
      if (!late && strikes + timeoutsOf(probeStartedAt, now) >= slowProbes)
        unreachable(
          new Error(`select 1 got no prompt answer ${slowProbes} times in a row (${timeoutMs} ms each)`),
        );
      return;
    }
    const startedAt = (probeStartedAt = now);
    const client = (prober ??= postgres(url, { max: 1, onnotice: () => {} }));
    client`select 1`.then(
      () => {
        if (client !== prober) return;
        probeStartedAt = null;
        const slow = timeoutsOf(startedAt, Date.now());
        strikes = slow > 0 ? strikes + slow : 0;
        if (slow > 0) log().warn({ strikes }, "The database answered the reachability probe slowly.");
        if (!databaseReachable())
          log().info("The database is reachable again; API requests are answered as usual.");
        state.__tillflowDbReachable = true;
      },
      (error: unknown) => {
        if (client !== prober) return;
        if (probeVerdict(error) === "cut") return unreachable(error);
        // The server answered, with an error: one strike, and the next probe asks again.
        probeStartedAt = null;
        strikes += 1;
        log().warn(
          { err: error, strikes },
          "The database refused the reachability probe; counted as a slow probe.",
        );
        if (strikes >= slowProbes) unreachable(error);
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
