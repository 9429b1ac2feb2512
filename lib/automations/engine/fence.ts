import { sql } from "drizzle-orm";
import { uuidArray } from "@/lib/db/array-literal";
import type { Tx } from "@/lib/db/client";
import { metrics } from "@/lib/metrics/metrics";

/*
 * Fencing: a worker cut off from Postgres (a network partition, a long pause) is presumed dead
 * after `TILLFLOW_WORKER_DEAD_AFTER_MS`, its jobs are freed and a peer claims its legs again as
 * replays. When the old worker comes back it still believes it owns them. Every claim raises a
 * token — on the run for a first leg, on the wait for a resumed one (claim.ts) — and every write
 * a leg makes (a phase, an outside action's delivery and outcome, a stop) first locks that row
 * and checks the token is still its own, in the same transaction. A takeover's claim needs the
 * same row lock, so either the old worker's transaction commits first (and the replay reads what
 * it recorded) or the claim does (and the old worker's write is refused, writing nothing).
 *
 * graphile-worker's `locked_by` cannot fence these writes: it is checked only when a job
 * completes or fails, not when our transactions commit, and the wake timer resumes waits under a
 * lock id of its own.
 */

/** What a leg's writes are fenced by: the wait it resumes (null for a first leg: the run), and its token. */
export interface LegClaim {
  runId: string;
  waitId: string | null;
  token: number;
}

/** A leg whose claim a peer took over: this attempt stops, and whatever it was writing is rolled back. */
export class LegTakenOver extends Error {
  constructor(readonly runIds: string[]) {
    super(
      `Another worker took over ${runIds.length === 1 ? `run ${runIds[0]}` : `${runIds.length} runs`} ` +
        "while this one was cut off; this attempt stops without writing.",
    );
    this.name = "LegTakenOver";
  }
}

/**
 * Locks the rows that fence these legs (until the transaction ends) and returns the claims that
 * are no longer the latest. Rows are locked in id order, runs before waits, as every phase does.
 */
export async function lostClaims(tx: Tx, claims: LegClaim[]): Promise<LegClaim[]> {
  const firsts = claims.filter((c) => c.waitId === null);
  const resumed = claims.filter((c) => c.waitId !== null);
  const tokens = new Map<string, number>();
  if (firsts.length > 0) {
    const rows = await tx.execute<{ id: string; claim: number }>(sql`
      select id::text, claim from automation_runs
      where id = any(${uuidArray(firsts.map((c) => c.runId))}::uuid[]) order by id for update`);
    for (const row of rows) tokens.set(row.id, Number(row.claim));
  }
  if (resumed.length > 0) {
    const rows = await tx.execute<{ id: string; claim: number }>(sql`
      select id::text, claim from automation_run_waits
      where id = any(${uuidArray(resumed.map((c) => c.waitId!))}::uuid[]) order by id for update`);
    for (const row of rows) tokens.set(row.id, Number(row.claim));
  }
  const lost = claims.filter((c) => tokens.get(c.waitId ?? c.runId) !== c.token);
  if (lost.length > 0) metrics().legsTakenOver.inc(lost.length);
  return lost;
}

/** Throws `LegTakenOver` unless every one of these claims is still the latest (see `lostClaims`). */
export async function holdClaims(tx: Tx, claims: (LegClaim | null)[]): Promise<void> {
  const held = claims.filter((c) => c !== null);
  if (held.length === 0) return;
  const lost = await lostClaims(tx, held);
  if (lost.length > 0) throw new LegTakenOver(lost.map((c) => c.runId));
}
