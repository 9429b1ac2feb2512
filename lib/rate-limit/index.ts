import { sql } from "drizzle-orm";
import { executePrepared } from "@/lib/db/prepared";
import { log } from "@/lib/log/logger";

/**
 * Request limits shared by every web process: a fixed window per key, counted in Postgres
 * (`rate_limit_windows`, an UNLOGGED table, so a commit waits for no WAL flush). The web app keeps
 * no state that matters, so two servers behind a balancer share one count. A window's row is
 * reused by the next window: the table holds one row per key.
 *
 * Terminology: a *rule* is a number of requests per window; a *key* names who is counted and for
 * what (`ingest:<apiKeyId>`); a *window* is the rule's period, aligned to the epoch on the web
 * server's clock.
 *
 * Two ways to count:
 * - `consume` adds one request with one statement (sign-in attempts: few, and each must count).
 * - `Counter` (the API's limits) is exact near the limit and cheap far from it: a process counts
 *   locally and adds its count to the shared row at most every `FLUSH_MS`, in the background,
 *   while the key is far from its limit; once within `margin` of it, every request adds itself
 *   with one statement and is decided on the shared total. So the hot ingest path pays no round
 *   trip per event; one process alone is exact, and several see each other's requests within
 *   about `FLUSH_MS` (a key far from its limit in one process may be admitted that much late).
 */
export interface RateRule {
  /** Requests allowed per window; 0 or less turns the limit off. */
  max: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests counted in this window so far, this one included (as far as this process knows). */
  hits: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

function windowOf(rule: RateRule, now: number) {
  const ms = rule.windowSeconds * 1000;
  const start = Math.floor(now / ms) * ms;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil((start + ms - now) / 1000)) };
}

/**
 * Adds `hits` to the key's count for the window starting at `start`, and returns the count. A
 * late addition for a window the row has already moved past leaves the row alone.
 */
async function add(key: string, start: number, hits: number): Promise<number | null> {
  // As text: prepared statements get their parameters unserialised (lib/db/prepared.ts).
  const windowStart = new Date(start).toISOString();
  const [row] = await executePrepared<{ hits: number; current: boolean }>(sql`
    insert into rate_limit_windows as w (key, window_start, hits)
    values (${key}, ${windowStart}::timestamptz, ${hits}::int)
    on conflict (key) do update set
      hits = case
        when w.window_start = excluded.window_start then w.hits + excluded.hits
        when w.window_start > excluded.window_start then w.hits
        else excluded.hits end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning w.hits, w.window_start = ${windowStart}::timestamptz as current`);
  return row?.current ? Number(row.hits) : null;
}

/** Counts one request against `key` with one statement and says whether it is within `rule`. */
export async function consume(key: string, rule: RateRule, now = Date.now()): Promise<RateDecision> {
  if (rule.max <= 0) return { allowed: true, hits: 0, retryAfterSeconds: 0 };
  const { start, retryAfterSeconds } = windowOf(rule, now);
  const hits = (await add(key, start, 1)) ?? 1;
  return { allowed: hits <= rule.max, hits, retryAfterSeconds };
}

/** How often a process adds its local count to the shared row while far from the limit. */
export const FLUSH_MS = 250;

interface Local {
  start: number;
  /** The shared count as last read, this process's added requests included. */
  shared: number;
  /** Requests counted here and not yet added to the shared row. */
  pending: number;
  lastFlush: number;
  flushing: boolean;
}

/** The batched counter described at the top of this file, one per process. */
export class Counter {
  private readonly locals = new Map<string, Local>();

  /** `margin(rule)`: how close to the limit counting turns exact. Default: a tenth of it, at least 50. */
  constructor(private readonly margin = (rule: RateRule) => Math.max(50, Math.ceil(rule.max / 10))) {}

  async take(key: string, rule: RateRule, now = Date.now()): Promise<RateDecision> {
    if (rule.max <= 0) return { allowed: true, hits: 0, retryAfterSeconds: 0 };
    const { start, retryAfterSeconds } = windowOf(rule, now);
    let local = this.locals.get(key);
    if (!local || local.start !== start) {
      local = { start, shared: 0, pending: 0, lastFlush: 0, flushing: false };
      this.locals.set(key, local);
      if (this.locals.size > 10_000) this.forgetOldWindows(start);
    }
    if (local.shared + local.pending + 1 > rule.max - this.margin(rule)) {
      // Near the limit: this request is added and decided on the shared total, with what is pending.
      const count = local.pending + 1;
      local.pending = 0; // before the await: a concurrent request must not add the same ones again
      const hits = (await add(key, start, count)) ?? count;
      local.shared = Math.max(local.shared, hits);
      local.lastFlush = now;
      return { allowed: hits <= rule.max, hits, retryAfterSeconds };
    }
    local.pending += 1;
    const hits = local.shared + local.pending;
    if (!local.flushing && now - local.lastFlush >= FLUSH_MS) void this.flush(key, local, now);
    return { allowed: true, hits, retryAfterSeconds };
  }

  private async flush(key: string, local: Local, now: number): Promise<void> {
    const count = local.pending;
    local.pending = 0;
    local.flushing = true;
    local.lastFlush = now;
    try {
      const hits = await add(key, local.start, count);
      if (hits !== null) local.shared = Math.max(local.shared, hits);
    } catch (error) {
      // The requests stay counted here; the next flush adds them.
      local.pending += count;
      log().error({ err: error }, "Could not add to the shared rate-limit count; will try again");
    } finally {
      local.flushing = false;
    }
  }

  private forgetOldWindows(current: number): void {
    for (const [key, local] of this.locals) if (local.start < current) this.locals.delete(key);
  }
}
