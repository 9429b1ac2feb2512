/** The chaos run's figures, read once it settled (lost, duplicated, effects, waits), its table and its verdict. */
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { count } from "../harness";
import type { Flows } from "./seed";

/** The figures of one run, as printed and kept in bench/results/chaos.json (in this order). */
export interface ChaosResult {
  kills: number;
  postgresRestarts: number;
  runs: number;
  expectedRuns: number;
  /** Runs not ended, and expected runs that never began. */
  unsettled: number;
  notSucceeded: number;
  /** (run, HTTP node) pairs that should have delivered and never did. */
  lost: number;
  /** (run, HTTP node) pairs delivered under two keys (the receiver could not drop them), or for runs or nodes that should not exist. */
  duplicated: number;
  /** The same key sent again after a kill cut a request short; the receiver dropped it. */
  resent: number;
  /** Tags and notes applied twice, or missing. */
  effectsWrong: number;
  /** Waits (not approvals) still pending 10 s past their time. */
  overdueWaits: number;
  /** The longest from a kill until none of the jobs the killed worker held was still locked by it. */
  maxRecoveryMs: number;
  /** The latest a minute wait or later step resumed past its time. */
  maxWaitLatenessMs: number;
  seconds: number;
  problems: string[];
}

/** What the run did and saw, for `tally`. */
interface Tallied {
  flows: Flows;
  /** The receiver's 2xx answers by key. */
  delivered: Map<string, number>;
  options: { orders: number; customers: number };
  expectedRuns: number;
  kills: number;
  postgresRestarts: number;
  recoveries: number[];
  /** When the run began, epoch ms. */
  started: number;
  /** Problems seen during the run; those found here are added. */
  problems: string[];
}

/** Reads the figures once the workers stopped: runs, deliveries by key, and each database effect. */
export async function tally(run: Tallied): Promise<ChaosResult> {
  const { flows, options, expectedRuns, kills, postgresRestarts, recoveries, started, problems } = run;
  const automationIds = [...flows.orders, flows.approvals, flows.fanout];
  const ids = sql.join(automationIds, sql`, `);
  const runs = await count(
    sql`select count(*)::int as n from automation_runs where automation_id in (${ids})`,
  );
  const unsettled = await count(sql`select count(*)::int as n from automation_runs
    where automation_id in (${ids}) and status not in ('succeeded', 'partial', 'failed', 'cancelled')`);
  const notSucceeded = await count(sql`select count(*)::int as n from automation_runs
    where automation_id in (${ids}) and status <> 'succeeded'`);
  for (const row of await getDb().execute<{ status: string; error: string | null; n: number }>(
    sql`select status, error, count(*)::int as n from automation_runs
        where automation_id in (${ids}) and status <> 'succeeded' group by 1, 2 order by 3 desc limit 5`,
  ))
    problems.push(`${row.n} run(s) ${row.status}${row.error ? `: ${row.error}` : ""}`);
  const overdueWaits = await count(sql`select count(*)::int as n from automation_run_waits
    where automation_id in (${ids}) and status = 'pending' and kind <> 'approval'
      and resume_at < now() - interval '10 seconds'`);
  const [lateness] = await getDb().execute<{ ms: number | null }>(sql`
    select max(extract(epoch from (resolved_at - resume_at)) * 1000)::int as ms from automation_run_waits
    where automation_id in (${ids}) and kind in ('delay', 'later') and resolved_at is not null`);

  // Deliveries: each (run, HTTP node) the flows reach must have arrived under exactly one key.
  const expected = await getDb().execute<{ pair: string }>(sql`
    select id::text || ':' || case when automation_id = ${flows.fanout} then 'fan'
                                   when trigger_node_id = 'back' then 'follow' else 'call' end as pair
    from automation_runs where automation_id in (${sql.join([...flows.orders, flows.fanout], sql`, `)})`);
  const keysByPair = new Map<string, Set<string>>();
  let resent = 0;
  for (const [key, n] of run.delivered) {
    const pair = key.split(":").slice(0, 2).join(":");
    const keys = keysByPair.get(pair) ?? new Set<string>();
    keys.add(key);
    keysByPair.set(pair, keys);
    resent += n - 1;
  }
  const expectedPairs = new Set(expected.map((e) => e.pair));
  const lost = [...expectedPairs].filter((pair) => !keysByPair.has(pair)).length;
  let duplicated = [...keysByPair.values()].filter((keys) => keys.size > 1).length;
  const strangers = [...keysByPair.keys()].filter((pair) => !expectedPairs.has(pair)).length;
  if (strangers > 0) problems.push(`${strangers} deliveries for runs or nodes that should not exist.`);
  duplicated += strangers;

  // Database effects: each exactly once per entity.
  const tenant = flows.tenantId;
  const onceTagged = (domain: string, tag: string) =>
    count(sql`select count(*)::int as n from entities where tenant_id = ${tenant} and domain = ${domain}
              and coalesce(array_length(array_positions(tags, ${tag}), 1), 0) = 1`);
  const twiceTagged = (domain: string, tag: string) =>
    count(sql`select count(*)::int as n from entities where tenant_id = ${tenant} and domain = ${domain}
              and coalesce(array_length(array_positions(tags, ${tag}), 1), 0) > 1`);
  const notes = (domain: string, body: string) =>
    getDb().execute<{
      entity_id: string;
      n: number;
    }>(sql`select entity_id, count(*)::int as n from entity_notes
      where tenant_id = ${tenant} and domain = ${domain} and body like ${body} group by 1`);
  const approvedRuns = await count(sql`select count(*)::int as n from automation_run_waits
    where automation_id = ${flows.approvals} and kind = 'approval' and decision = 'approved'`);
  const rejectedRuns = await count(sql`select count(*)::int as n from automation_run_waits
    where automation_id = ${flows.approvals} and kind = 'approval' and decision = 'rejected'`);
  const orderNotes = await notes("order", "Called for %");
  const rejectedNotes = await notes("customer", "Rejected");
  const checks: [string, number, number][] = [
    ["orders tagged 'chaos' once", await onceTagged("order", "chaos"), options.orders],
    ["customers tagged 'fanned' once", await onceTagged("customer", "fanned"), options.customers],
    ["customers tagged 'approved' once", await onceTagged("customer", "approved"), approvedRuns],
    ["orders with one note", orderNotes.filter((r) => r.n === 1).length, options.orders],
    ["customers with one 'Rejected' note", rejectedNotes.filter((r) => r.n === 1).length, rejectedRuns],
    ["decisions", approvedRuns + rejectedRuns, options.customers],
  ];
  let effectsWrong =
    (await twiceTagged("order", "chaos")) +
    (await twiceTagged("customer", "fanned")) +
    (await twiceTagged("customer", "approved")) +
    orderNotes.filter((r) => r.n > 1).length +
    rejectedNotes.filter((r) => r.n > 1).length;
  for (const [what, actual, wanted] of checks) {
    if (actual !== wanted) {
      problems.push(`${what}: ${actual}, expected ${wanted}.`);
      effectsWrong += Math.abs(wanted - actual);
    }
  }

  return {
    kills,
    postgresRestarts,
    runs,
    expectedRuns,
    unsettled: unsettled + Math.max(0, expectedRuns - runs),
    notSucceeded,
    lost,
    duplicated,
    resent,
    effectsWrong,
    overdueWaits,
    maxRecoveryMs: recoveries.length > 0 ? Math.max(...recoveries) : 0,
    maxWaitLatenessMs: lateness?.ms ?? 0,
    seconds: Math.round((Date.now() - started) / 1000),
    problems,
  };
}

/** The result as the table `npm run chaos` prints. */
export function chaosTable(result: ChaosResult): string {
  const rows: [string, string | number][] = [
    ["kills (SIGKILL + restart)", result.kills],
    ["Postgres restarts (immediate)", result.postgresRestarts],
    ["runs", `${result.runs} of ${result.expectedRuns}`],
    ["unsettled runs", result.unsettled],
    ["runs not succeeded", result.notSucceeded],
    ["deliveries lost", result.lost],
    ["deliveries duplicated", result.duplicated],
    ["re-sent with the same key (dropped)", result.resent],
    ["database effects wrong", result.effectsWrong],
    ["waits pending past their time", result.overdueWaits],
    ["max recovery after a kill", `${(result.maxRecoveryMs / 1000).toFixed(1)} s`],
    ["max wait lateness", `${(result.maxWaitLatenessMs / 1000).toFixed(1)} s`],
    ["duration", `${result.seconds} s`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n");
}

/** Passed: every run settled and succeeded, nothing lost or duplicated, recovery within 30 s. */
export function chaosPassed(result: ChaosResult): boolean {
  return (
    result.unsettled === 0 &&
    result.notSucceeded === 0 &&
    result.lost === 0 &&
    result.duplicated === 0 &&
    result.effectsWrong === 0 &&
    result.overdueWaits === 0 &&
    result.maxRecoveryMs <= 30_000
  );
}
