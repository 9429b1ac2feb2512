/** The chaos run in order: seed the shop, start the workers, send the traffic, kill workers and Postgres, let it settle. */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { decideApproval } from "@/lib/automations/waits/approvals";
import { runNow } from "@/lib/automations/schedules/manage";
import { getDb } from "@/lib/db/client";
import { count } from "../harness";
import { heldJobs, stillHeld, WorkerFleet } from "./fleet";
import { hash, startReceiver } from "./receiver";
import { tally, type ChaosResult } from "./report";
import { createFlows, insertEntities, recordCreated, type Flows } from "./seed";

export interface ChaosOptions {
  /** Order runs (each asks for a later step, so as many later runs again). */
  orders: number;
  /** Approval runs, and as many schedule fan-out runs. */
  customers: number;
  /** Worker processes, 2 to 4. */
  workers: number;
  /** SIGKILLs, at random moments, each followed by a restart of that worker. */
  kills: number;
  /** Milliseconds between kills: a random value in this range. */
  killEveryMs: [number, number];
  /** Restarts Postgres once, halfway through the kills; null to leave it running. */
  restartPostgres: (() => Promise<void>) | null;
  /** Make minute waits and later steps due at once instead of waiting a real minute. */
  quick: boolean;
  /** Give up waiting for runs to settle after this long. */
  settleTimeoutMs: number;
  /** Where the workers' output goes (one file each); null to drop it. */
  logDir: string | null;
  log: (line: string) => void;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([min, max]: [number, number]) => min + Math.random() * (max - min);

/** Runs a statement, riding out the seconds Postgres is down for its restart. */
export async function patiently<T>(
  work: () => Promise<T>,
  what: string,
  log: (line: string) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 60) throw error;
      if (attempt === 1)
        log(`  (${what} failed, retrying: ${error instanceof Error ? error.message : error})`);
      await sleep(500);
    }
  }
}

/** Until `done()`, whether the traffic should keep going. */
export type Running = () => boolean;

/** The customers' events at once, then the orders' in chunks of `chunk`, 200 ms apart, straight into the database. */
export async function recordInChunks(
  flows: Flows,
  orderIds: string[],
  customerIds: string[],
  chunk: number,
  log: (line: string) => void,
) {
  await patiently(() => recordCreated(flows.tenantId, "customer", customerIds), "customer events", log);
  for (let start = 0; start < orderIds.length; start += chunk) {
    const ids = orderIds.slice(start, start + chunk);
    await patiently(() => recordCreated(flows.tenantId, "order", ids), "order events", log);
    await sleep(200);
  }
}

/** Events arrive over the first seconds, in chunks, so kills land on every stage of the flows. */
async function sendEvents(
  flows: Flows,
  orderIds: string[],
  customerIds: string[],
  log: (line: string) => void,
) {
  await recordInChunks(flows, orderIds, customerIds, 250, log);
  await sleep(1_000);
  await patiently(() => runNow(flows.caller, flows.fanout), "schedule run-now", log);
  log("  all events recorded and the schedule fired");
}

/** The approvals are decided as they come in: two in three approved, the rest rejected. */
export async function decideApprovals(flows: Flows, running: Running, problems: string[]) {
  while (running()) {
    try {
      const pending = await getDb().execute<{ id: string; run_id: string }>(
        sql`select id::text, run_id::text from automation_run_waits
            where automation_id = ${flows.approvals} and kind = 'approval' and status = 'pending' limit 200`,
      );
      for (const wait of pending) {
        const decision = hash(wait.run_id) % 3 === 0 ? "rejected" : "approved";
        await decideApproval(flows.caller, wait.id, { decision, note: "chaos" }).catch((error: unknown) => {
          // A second decision after a restart races with the first: 409 is the right answer.
          if (!(error instanceof Error && /already|409/i.test(error.message)))
            problems.push(`Deciding approval ${wait.id} failed: ${String(error)}`);
        });
      }
    } catch {
      // Postgres is restarting: try again in a moment.
    }
    await sleep(300);
  }
}

/** Quick mode: minute waits and later steps come due now rather than in a minute. */
export async function hurryWaits(flows: Flows, running: Running) {
  while (running()) {
    await getDb()
      .execute(
        sql`with moved as (
              update automation_run_waits set resume_at = now() + interval '300 milliseconds'
              where automation_id in (${sql.join(flows.orders, sql`, `)}) and status = 'pending' and kind in ('delay', 'later')
                and resume_at > now() + interval '300 milliseconds'
              returning id::text as key)
            update graphile_worker._private_jobs j set run_at = now() + interval '300 milliseconds'
            from moved where j.key = moved.key`,
      )
      .catch(() => {});
    await sleep(250);
  }
}

interface Faults {
  kills: number;
  postgresRestarts: number;
  /** Per kill whose worker held jobs: milliseconds until none of them was still locked by it. */
  recoveries: number[];
}

/** The kills (each followed by a restart of that worker), and one Postgres restart halfway. */
async function injectFaults(options: ChaosOptions, fleet: WorkerFleet, problems: string[]): Promise<Faults> {
  const { log } = options;
  const recoveries: number[] = [];
  let kills = 0;
  let postgresRestarts = 0;
  const trackers: Promise<void>[] = [];
  await sleep(between(options.killEveryMs));
  for (let i = 0; i < options.kills; i++) {
    // A random worker among those that have started (registered a heartbeat), else any.
    const slots = Array.from({ length: fleet.size }, (_, n) => n);
    const running = await patiently(
      () => getDb().execute<{ pid: number }>(sql`select pid from worker_heartbeats where stopped_at is null`),
      "reading heartbeats",
      log,
    );
    const started = slots.filter((n) => running.some((r) => r.pid === fleet.pidOf(n)));
    const pool = started.length > 0 ? started : slots;
    const slot = pool[Math.floor(Math.random() * pool.length)]!;
    const pid = fleet.pidOf(slot);
    if (pid === null) continue;
    const held = await patiently(() => heldJobs(pid), "reading held jobs", log);
    const killedAt = Date.now();
    await fleet.kill(slot);
    kills++;
    const restartIn = Math.random() * 2_000;
    log(
      `  kill ${kills}: worker ${slot} (pid ${pid}) holding ${held.jobIds.length} jobs; restarting in ${(restartIn / 1000).toFixed(1)} s`,
    );
    setTimeout(() => fleet.start(slot), restartIn);
    if (held.jobIds.length > 0) {
      trackers.push(
        (async () => {
          // Recovered when none of its jobs is still locked by it (each ran again, or waits its turn).
          while ((await stillHeld(held.lockIds, held.jobIds).catch(() => 1)) > 0) {
            if (Date.now() - killedAt > 120_000) {
              problems.push(`Jobs of the worker killed at kill ${kills} were still locked after 2 minutes.`);
              return;
            }
            await sleep(100);
          }
          recoveries.push(Date.now() - killedAt);
        })(),
      );
    }
    if (options.restartPostgres && i === Math.floor(options.kills / 2)) {
      await sleep(1_000);
      const at = Date.now();
      await options.restartPostgres();
      postgresRestarts++;
      log(`  Postgres restarted (immediate) in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    }
    await sleep(between(options.killEveryMs));
  }
  await Promise.all(trackers);
  return { kills, postgresRestarts, recoveries };
}

/** Waits until every expected run ended (or the timeout passed). */
export async function settle(
  automationIds: string[],
  expectedRuns: number,
  timeoutMs: number,
): Promise<void> {
  const settledQuery = () =>
    count(sql`select count(*)::int as n from automation_runs
              where automation_id in (${sql.join(automationIds, sql`, `)})
                and status in ('succeeded', 'partial', 'failed', 'cancelled')`);
  const settleDeadline = Date.now() + timeoutMs;
  let settled = 0;
  while (Date.now() < settleDeadline) {
    settled = await settledQuery().catch(() => settled);
    if (settled >= expectedRuns) break;
    await sleep(500);
  }
}

/** The whole run on the current DATABASE_URL, then its figures (see report.ts). */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const { log } = options;
  const started = Date.now();
  const receiver = await startReceiver();
  const flows = await createFlows(receiver.url);
  const automationIds = [...flows.orders, flows.approvals, flows.fanout];
  const orderIds = Array.from({ length: options.orders }, (_, i) => `o-${i}`);
  const customerIds = Array.from({ length: options.customers }, (_, i) => `c-${String(i).padStart(6, "0")}`);
  await insertEntities(flows.tenantId, "order", orderIds);
  await insertEntities(flows.tenantId, "customer", customerIds);
  const expectedRuns = 2 * (options.orders + options.customers);

  if (options.logDir) fs.mkdirSync(options.logDir, { recursive: true });
  const fleet = new WorkerFleet(
    options.workers,
    {
      ...process.env,
      HTTP_ACTION_ALLOW: "127.0.0.1,localhost",
      TILLFLOW_SCHEDULES: "off",
    },
    options.logDir,
    log,
  );
  fleet.startAll();
  let done = false;
  const running = () => !done;
  const problems: string[] = [];
  const background: Promise<void>[] = [
    sendEvents(flows, orderIds, customerIds, log),
    decideApprovals(flows, running, problems),
  ];
  if (options.quick) background.push(hurryWaits(flows, running));

  const faults = await injectFaults(options, fleet, problems);
  await settle(automationIds, expectedRuns, options.settleTimeoutMs);
  // A moment more: a duplicate run or effect would show up now.
  await sleep(1_000);
  done = true;
  await Promise.all(background);
  await fleet.stopAll();
  await receiver.close();
  if (fleet.exitedByThemselves > 0)
    problems.push(`${fleet.exitedByThemselves} worker(s) exited by themselves (see their logs).`);

  return tally({ ...faults, flows, delivered: receiver.delivered, options, expectedRuns, started, problems });
}
