/**
 * `npm run chaos`: the crash suite (SPEC §5 "Crash"). Real worker processes run flows with waits,
 * HTTP calls that fail once and retry, approvals, later steps and a schedule fan-out, while
 * workers are SIGKILLed at random moments and restarted, and Postgres is restarted once with
 * `pg_ctl restart -m immediate`. Then it checks that every run settled, no wait is pending past
 * its time, every HTTP delivery reached the receiver exactly once by key, and every database
 * effect happened exactly once, and prints a table.
 *
 * Terminology
 * - receiver: an HTTP server on 127.0.0.1 standing in for a merchant's system. It answers 503 to
 *   the first attempt of one key in five (the action retries), and counts deliveries by
 *   `Idempotency-Key` (`<run>:<node>:<leg>`), dropping a repeat of a key as a real receiver would.
 * - lost: a (run, HTTP node) that should have delivered and never did.
 * - duplicated: a (run, HTTP node) delivered under two keys (the receiver could not drop it), or a
 *   database effect (tag, note) applied twice.
 * - re-sent: the same key sent again after a kill cut a request short; the receiver dropped it.
 * - recovery: from a kill until none of the jobs the killed worker held is still locked by it.
 *
 * Flows (one shop):
 *   order_created or order_paid ─▶ tag(chaos) ─▶ wait 1 min ─▶ http(call, retries) ─▶ note ─▶ later(1 min, "follow")
 *   later(follow) ─▶ http(follow, retries)                       (same automation: a second run)
 *   customer_created ─▶ approval ─approved─▶ tag(approved) · ─rejected─▶ note(Rejected)
 *   schedule (run now, every customer) ─▶ tag(fanned) ─▶ http(fan, retries)
 * Runs: 2 × orders + 2 × customers. `--quick` makes the minute waits due at once (moving
 * `resume_at` and the job's `run_at` earlier), as the short run inside `npm test` does.
 *
 * Usage: npm run chaos [-- --orders 1500 --customers 1000 --workers 3 --kills 12 --quick]
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import type { Caller } from "@/lib/auth/caller";
import { createTenant } from "@/lib/auth/tenants";
import { decideApproval } from "@/lib/automations/waits/approvals";
import { runNow } from "@/lib/automations/schedules/manage";
import { createAutomation } from "@/lib/automations/lifecycle/create";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import postgres from "postgres";
import { closeDb, getDb } from "@/lib/db/client";
import { createDatabaseIfMissing, surviveDatabaseRestarts } from "@/lib/db/connection";
import { dataRoot, databaseUrl, restartEmbeddedImmediately, startOrFindEmbedded } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { entities } from "@/lib/db/schema";
import { recordEvents } from "@/lib/events/record";

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

export interface ChaosResult {
  kills: number;
  postgresRestarts: number;
  runs: number;
  expectedRuns: number;
  unsettled: number;
  notSucceeded: number;
  lost: number;
  duplicated: number;
  resent: number;
  effectsWrong: number;
  overdueWaits: number;
  maxRecoveryMs: number;
  maxWaitLatenessMs: number;
  seconds: number;
  problems: string[];
}

const RETRY = { attempts: 4, backoff: "fixed", initialSeconds: 1 } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([min, max]: [number, number]) => min + Math.random() * (max - min);

/** A tiny stable hash, so which keys fail first and which approvals are rejected is reproducible. */
function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

interface Receiver {
  url: string;
  /** 2xx answers by key. */
  delivered: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const delivered = new Map<string, number>();
  const failedOnce = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    const key = String(req.headers["idempotency-key"] ?? "");
    if (hash(key) % 5 === 0 && !failedOnce.has(key)) {
      failedOnce.add(key);
      res.statusCode = 503;
      res.end("try again");
      return;
    }
    delivered.set(key, (delivered.get(key) ?? 0) + 1);
    // A little latency, so requests are in flight when a worker is killed.
    setTimeout(() => res.end("ok"), 5 + Math.random() * 25);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delivered,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Flows {
  caller: Caller;
  tenantId: string;
  /** Order automations: the first listens to order.created, the second to order.paid. */
  orders: string[];
  approvals: string;
  fanout: string;
}

async function publish(caller: Caller, name: string, nodes: unknown[], edges: unknown[]): Promise<string> {
  const automation = await createAutomation(caller, { name, graph: { nodes, edges } });
  await publishAutomation(caller, automation.id, {});
  return automation.id;
}

async function createFlows(receiver: string): Promise<Flows> {
  const tenant = await createTenant({ slug: `chaos-${Date.now().toString(36)}`, name: "Chaos" });
  const { key } = await createApiKey(tenant.id, { name: "chaos", role: "admin" });
  const caller = (await resolveCaller(new Headers({ authorization: `Bearer ${key}` })))!;
  const edge = (source: string, target: string, sourceHandle = "out") => ({
    id: `${source}-${target}`,
    source,
    sourceHandle,
    target,
  });
  const httpNode = (id: string, pathName: string) => ({
    id,
    type: "auto.action.http_request",
    params: { url: `${receiver}/${pathName}`, method: "POST", body: '{"run":"{run.id}"}', retry: RETRY },
  });
  // Two automations share the orders (one listens to order.created, the other to order.paid):
  // each may have at most 1,000 later steps waiting (SPEC §2), and 1,500 orders ask for as many.
  const orderFlow = (trigger: string) => [
    { id: "t", type: trigger, params: {} },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "chaos" } },
    { id: "wait", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
    httpNode("call", "call"),
    { id: "note", type: "auto.action.add_note", params: { body: "Called for {entity.id}" } },
    {
      id: "ask",
      type: "auto.action.later",
      params: { when: "1m", step: "follow", key: "{entity.id}", then: {} },
    },
    { id: "back", type: "auto.trigger.later", params: { step: "follow" } },
    httpNode("follow", "follow"),
  ];
  const orderEdges = [
    edge("t", "tag"),
    edge("tag", "wait"),
    edge("wait", "call"),
    edge("call", "note"),
    edge("note", "ask"),
    edge("back", "follow"),
  ];
  const orders = [
    await publish(caller, "Chaos orders (created)", orderFlow("auto.trigger.order_created"), orderEdges),
    await publish(caller, "Chaos orders (paid)", orderFlow("auto.trigger.order_paid"), orderEdges),
  ];
  const approvals = await publish(
    caller,
    "Chaos approvals",
    [
      { id: "t", type: "auto.trigger.customer_created", params: {} },
      {
        id: "review",
        type: "auto.control.approval",
        params: { title: "Review", timeoutHours: 72, approverRole: "editor" },
      },
      { id: "ok", type: "auto.action.add_tag", params: { tag: "approved" } },
      { id: "no", type: "auto.action.add_note", params: { body: "Rejected" } },
    ],
    [edge("t", "review"), edge("review", "ok", "approved"), edge("review", "no", "rejected")],
  );
  const fanout = await publish(
    caller,
    "Chaos fan-out",
    [
      {
        id: "t",
        type: "auto.trigger.schedule",
        params: { cron: "0 9 1 1 *", timezone: "UTC", audience: { tagsExclude: ["nobody"] } },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "fanned" } },
      httpNode("fan", "fan"),
    ],
    [edge("t", "tag"), edge("tag", "fan")],
  );
  return { caller, tenantId: tenant.id, orders, approvals, fanout };
}

async function insertEntities(tenantId: string, domain: "order" | "customer", ids: string[]): Promise<void> {
  const data = (i: number) =>
    domain === "order"
      ? { number: `#${i}`, status: "pending", total: 10, currency: "EUR", lineItems: [] }
      : {
          email: `c${i}@example.test`,
          name: `C ${i}`,
          ordersCount: 0,
          totalSpent: 0,
          acceptsMarketing: true,
        };
  for (let start = 0; start < ids.length; start += 1000) {
    await getDb()
      .insert(entities)
      .values(
        ids.slice(start, start + 1000).map((id, i) => ({
          tenantId,
          domain,
          id,
          data: data(start + i),
          status: domain === "order" ? "pending" : null,
          email: domain === "customer" ? `c${start + i}@example.test` : null,
          updatedAt: new Date(),
        })),
      );
  }
}

/** `<domain>.created` for each id; for orders, every other one is `order.paid` instead (see createFlows). */
async function recordCreated(tenantId: string, domain: "order" | "customer", ids: string[]): Promise<void> {
  await getDb().transaction((tx) =>
    recordEvents(
      tx,
      tenantId,
      ids.map((entityId, i) => ({
        type: domain === "order" && i % 2 === 1 ? "order.paid" : `${domain}.created`,
        domain,
        entityId,
      })),
    ),
  );
}

/** Runs a statement, riding out the seconds Postgres is down for its restart. */
async function patiently<T>(work: () => Promise<T>, what: string, log: (line: string) => void): Promise<T> {
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

class WorkerFleet {
  private readonly processes: (ChildProcess | null)[];
  private spawned = 0;
  /** Workers found already gone when their kill came: each is a crash the suite did not cause. */
  exitedByThemselves = 0;

  constructor(
    size: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logDir: string | null,
    private readonly log: (line: string) => void,
  ) {
    this.processes = Array.from({ length: size }, () => null);
  }

  startAll(): void {
    for (let slot = 0; slot < this.processes.length; slot++) this.start(slot);
  }

  start(slot: number): void {
    const n = ++this.spawned;
    const out = this.logDir ? fs.openSync(path.join(this.logDir, `worker-${slot}-${n}.log`), "a") : "ignore";
    const child = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
      env: this.env,
      stdio: ["ignore", out, out],
    });
    if (typeof out === "number") fs.closeSync(out);
    this.processes[slot] = child;
  }

  get size(): number {
    return this.processes.length;
  }

  /** SIGKILLs the worker in `slot`; resolves with its pid once it is gone. */
  async kill(slot: number): Promise<number> {
    const child = this.processes[slot]!;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    } else {
      this.exitedByThemselves++;
      this.log(`  worker ${slot} (pid ${child.pid}) had exited by itself (code ${child.exitCode})`);
    }
    this.processes[slot] = null;
    return child.pid!;
  }

  pidOf(slot: number): number | null {
    return this.processes[slot]?.pid ?? null;
  }

  /** Asks every worker to stop (SIGTERM), and kills those still running after 20 s. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.processes.map(async (child) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const force = setTimeout(() => child.kill("SIGKILL"), 20_000);
        await exited;
        clearTimeout(force);
      }),
    );
  }

  killAllNow(): void {
    for (const child of this.processes) if (child && child.exitCode === null) child.kill("SIGKILL");
  }
}

/** Locked jobs of the worker with this pid (its heartbeat names its lock ids). */
async function heldJobs(pid: number): Promise<{ lockIds: string[]; jobIds: string[] }> {
  const [row] = await getDb().execute<{ lock_ids: string[] | null }>(
    sql`select lock_ids from worker_heartbeats where pid = ${pid} and stopped_at is null
        order by started_at desc limit 1`,
  );
  const lockIds = row?.lock_ids ?? [];
  if (lockIds.length === 0) return { lockIds, jobIds: [] };
  const jobs = await getDb().execute<{ id: string }>(
    sql`select id::text from graphile_worker._private_jobs
        where locked_by in (select json_array_elements_text(${JSON.stringify(lockIds)}::json))`,
  );
  return { lockIds, jobIds: jobs.map((j) => j.id) };
}

async function stillHeld(lockIds: string[], jobIds: string[]): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from graphile_worker._private_jobs
        where id in (select json_array_elements_text(${JSON.stringify(jobIds)}::json)::bigint)
          and locked_by in (select json_array_elements_text(${JSON.stringify(lockIds)}::json))`,
  );
  return row!.n;
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(query);
  return row!.n;
}

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
  const background: Promise<void>[] = [];
  const problems: string[] = [];

  // Events arrive over the first seconds, in chunks, so kills land on every stage of the flows.
  background.push(
    (async () => {
      await patiently(() => recordCreated(flows.tenantId, "customer", customerIds), "customer events", log);
      for (let start = 0; start < orderIds.length; start += 250) {
        const chunk = orderIds.slice(start, start + 250);
        await patiently(() => recordCreated(flows.tenantId, "order", chunk), "order events", log);
        await sleep(200);
      }
      await sleep(1_000);
      await patiently(() => runNow(flows.caller, flows.fanout), "schedule run-now", log);
      log("  all events recorded and the schedule fired");
    })(),
  );

  // The approvals are decided as they come in: two in three approved, the rest rejected.
  background.push(
    (async () => {
      while (!done) {
        try {
          const pending = await getDb().execute<{ id: string; run_id: string }>(
            sql`select id::text, run_id::text from automation_run_waits
                where automation_id = ${flows.approvals} and kind = 'approval' and status = 'pending' limit 200`,
          );
          for (const wait of pending) {
            const decision = hash(wait.run_id) % 3 === 0 ? "rejected" : "approved";
            await decideApproval(flows.caller, wait.id, { decision, note: "chaos" }).catch(
              (error: unknown) => {
                // A second decision after a restart races with the first: 409 is the right answer.
                if (!(error instanceof Error && /already|409/i.test(error.message)))
                  problems.push(`Deciding approval ${wait.id} failed: ${String(error)}`);
              },
            );
          }
        } catch {
          // Postgres is restarting: try again in a moment.
        }
        await sleep(300);
      }
    })(),
  );

  // Quick mode: minute waits and later steps come due now rather than in a minute.
  if (options.quick) {
    background.push(
      (async () => {
        while (!done) {
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
      })(),
    );
  }

  // Kills (and one Postgres restart halfway).
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

  // Settle: every run ended, none expected is missing.
  const settledQuery = () =>
    count(sql`select count(*)::int as n from automation_runs
              where automation_id in (${sql.join(automationIds, sql`, `)})
                and status in ('succeeded', 'partial', 'failed', 'cancelled')`);
  const settleDeadline = Date.now() + options.settleTimeoutMs;
  let settled = 0;
  while (Date.now() < settleDeadline) {
    settled = await settledQuery().catch(() => settled);
    if (settled >= expectedRuns) break;
    await sleep(500);
  }
  // A moment more: a duplicate run or effect would show up now.
  await sleep(1_000);
  done = true;
  await Promise.all(background);
  await fleet.stopAll();
  await receiver.close();
  if (fleet.exitedByThemselves > 0)
    problems.push(`${fleet.exitedByThemselves} worker(s) exited by themselves (see their logs).`);

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
  for (const [key, n] of receiver.delivered) {
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

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/**
 * A fresh database on a cluster of the chaos suite's own (`.data/chaos-pg`), which it may restart
 * at will, or on DATABASE_URL's server (which it then never restarts: it is someone else's).
 */
async function chaosDatabase(): Promise<{ restart: (() => Promise<void>) | null; drop(): Promise<void> }> {
  let serverUrl: string;
  let restart: (() => Promise<void>) | null = null;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    serverUrl = databaseUrl(process.env.DATABASE_URL, "postgres");
  } else {
    const dataDir = path.join(dataRoot(), "chaos-pg");
    const cluster = await startOrFindEmbedded(dataDir);
    serverUrl = cluster.serverUrl;
    stop = cluster.stop;
    if (cluster.owned) restart = () => restartEmbeddedImmediately(dataDir);
  }
  const database = `chaos_${Date.now()}`;
  await createDatabaseIfMissing(serverUrl, database);
  const url = databaseUrl(serverUrl, database);
  await migrateDatabase(url);
  process.env.DATABASE_URL = url;
  return {
    restart,
    async drop() {
      await closeDb();
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists "${database}" with (force)`);
      await admin.end();
      await stop();
    },
  };
}

async function main(): Promise<void> {
  surviveDatabaseRestarts();
  const db = await chaosDatabase();
  const options: ChaosOptions = {
    orders: Number(flag("orders") ?? 1500),
    customers: Number(flag("customers") ?? 1000),
    workers: Math.min(4, Math.max(2, Number(flag("workers") ?? 3))),
    kills: Number(flag("kills") ?? 12),
    // Real minute waits and later steps keep the load going for over two minutes: spread the
    // kills over it, so they land on first legs, resumes and later runs alike.
    killEveryMs: process.argv.includes("--quick") ? [2_000, 6_000] : [5_000, 14_000],
    restartPostgres: db.restart,
    quick: process.argv.includes("--quick"),
    settleTimeoutMs: 600_000,
    logDir: path.join(dataRoot(), "chaos-logs"),
    log: (line) => console.log(line),
  };
  console.log(
    `Chaos: ${2 * (options.orders + options.customers)} runs over ${options.workers} workers, ${options.kills} kills` +
      `${options.restartPostgres ? ", one Postgres restart" : ""}; worker logs in ${options.logDir}`,
  );
  try {
    const result = await runChaos(options);
    console.log(`\nchaos\n${chaosTable(result)}`);
    for (const problem of result.problems) console.log(`  ! ${problem}`);
    const passed = chaosPassed(result);
    console.log(JSON.stringify({ chaos: passed ? "passed" : "failed", ...result }));
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync(
      "bench/results/chaos.json",
      `${JSON.stringify({ at: new Date().toISOString(), ...result })}\n`,
    );
    process.exitCode = passed ? 0 : 1;
  } finally {
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error("The chaos run could not finish:", error);
    process.exit(1);
  });
}
