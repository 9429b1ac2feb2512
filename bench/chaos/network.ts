/**
 * `npm run chaos -- --hosts`: Postgres, the web server, three workers and the HTTP receiver each on
 * a host of their own (hosts.ts), and one round of traffic per fault across their links.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { runNow } from "@/lib/automations/schedules/manage";
import { setEnv } from "@/lib/config/config";
import { closeDb } from "@/lib/db/client";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { databaseUrl } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/migrate";
import { heldJobs, stillHeld, WorkerFleet } from "./fleet";
import { Hosts } from "./hosts";
import { Link } from "./link";
import { startPostgresOn } from "./postgres-host";
import { chaosPassed, tally, type ChaosResult } from "./report";
import { decideApprovals, hurryWaits, patiently, recordInChunks, settle, sleep } from "./scenario";
import { createFlows, insertEntities, type Flows } from "./seed";

export interface HostChaosOptions {
  /** Runs in each fault's round (a quarter orders, two runs each; a quarter customers, two runs each). */
  runsPerFault: number;
  /** How long a worker host's cable stays pulled. */
  cutMs: number;
  /** How long the web host is cut off from Postgres. */
  webCutMs: number;
  /** The workers' TILLFLOW_WORKER_DEAD_AFTER_MS: how long a silent peer has before its jobs are freed. */
  deadAfterMs: number;
  settleTimeoutMs: number;
  logDir: string;
  log: (line: string) => void;
}

/** The web server's side of a round whose events went through it. */
export interface WebFigures {
  /** Requests answered 503 while it could not reach Postgres. */
  refused: number;
  /** What the 503 said. */
  sentence: string | null;
  /** From the cut to the first 503. */
  firstRefusalMs: number | null;
  /** From the link's return to the first event accepted again. */
  recoveryMs: number | null;
  /** Requests that got no answer at all (a hang or a reset) instead of a 503. */
  unanswered: number;
}

export interface FaultRow extends ChaosResult {
  fault: string;
  /** Writes the fence refused (fence.ts): legs a worker found taken over when it came back. */
  fenced: number;
  web: WebFigures | null;
}

/** How many times the workers' logs say a leg was taken over (fence.ts). */
function fencedSoFar(logDir: string): number {
  let n = 0;
  for (const file of fs.readdirSync(logDir).filter((f) => f.startsWith("worker-")))
    n += fs.readFileSync(path.join(logDir, file), "utf8").split("Another worker took over").length - 1;
  return n;
}

/** When the web host was cut off and when it was reconnected (epoch ms). */
interface Timeline {
  cutAt?: number;
  restoredAt?: number;
}

interface Cluster {
  hosts: Hosts;
  fleet: WorkerFleet;
  /** Worker 2's link to Postgres, which the latency round slows. */
  slowLink: Link;
  receiverUrl: string;
  webUrl: string;
  options: HostChaosOptions;
}

interface Fault {
  name: string;
  /** Events go through the web server's API instead of straight into the database. */
  viaWeb: boolean;
  /** Starts with the round's traffic; resolves with recovery times, once the fault is over (or set for the round). */
  inject(cluster: Cluster, timeline: Timeline, problems: string[]): Promise<number[]>;
  /** Undoes a fault that lasts the whole round, once it settled. */
  heal?(cluster: Cluster): void;
}

const FAULTS: Fault[] = [
  {
    name: "worker 1's link cut while it holds jobs",
    viaWeb: false,
    async inject({ hosts, fleet, options, receiverUrl }, _timeline, problems) {
      const pid = fleet.pidOf(0)!;
      let held = { lockIds: [] as string[], jobIds: [] as string[] };
      // The receiver answers worker 1's HTTP steps 2 s late, so that it holds its jobs long enough
      // to be seen holding them even on a loaded machine, where a quick job is over between two looks.
      const worker1 = hosts.host("worker1").address;
      await fetch(`${receiverUrl}/__slow?from=${worker1}&ms=2000`, { method: "PUT" });
      // Cut while it is busy: as soon as it holds several jobs (or any, after 15 s).
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(20)) {
        held = await heldJobs(pid).catch(() => held);
        if (held.jobIds.length >= 5 || (held.jobIds.length > 0 && deadline - Date.now() < 15_000)) break;
      }
      if (held.jobIds.length === 0) problems.push("Worker 1 never held a job to be cut off with.");
      hosts.cut("worker1");
      const cutAt = Date.now();
      await fetch(`${receiverUrl}/__slow`, { method: "DELETE" });
      options.log(`  worker 1 cut off holding ${held.jobIds.length} jobs`);
      // Recovered when none of its jobs is still locked by it: each ran elsewhere, or waits its turn.
      const recovered = (async () => {
        while ((await stillHeld(held.lockIds, held.jobIds).catch(() => 1)) > 0) {
          if (Date.now() - cutAt > 120_000) {
            problems.push("The cut-off worker's jobs were still locked by it after 2 minutes.");
            return [];
          }
          await sleep(100);
        }
        return [Date.now() - cutAt];
      })();
      await sleep(options.cutMs);
      hosts.restore("worker1");
      options.log(`  worker 1's link restored after ${options.cutMs / 1000} s`);
      return recovered;
    },
  },
  {
    name: "worker 2 behind 200 ms and 5 % packet loss",
    viaWeb: false,
    async inject({ hosts, slowLink }) {
      slowLink.delayMs = 100;
      hosts.lose("worker2", 5);
      return [];
    },
    heal({ hosts, slowLink }) {
      slowLink.delayMs = 0;
      hosts.clearLoss("worker2");
    },
  },
  {
    name: "web cut off from Postgres under ingest",
    viaWeb: true,
    async inject({ hosts, options }, timeline) {
      await sleep(1_500);
      hosts.separate("web", "postgres");
      timeline.cutAt = Date.now();
      options.log(`  web host cut off from Postgres`);
      await sleep(options.webCutMs);
      hosts.reconnect("web");
      timeline.restoredAt = Date.now();
      options.log(`  web host reconnected after ${options.webCutMs / 1000} s`);
      return [];
    },
  },
];

/**
 * Events through `POST /api/v1/events`, spread over `spreadMs`, each with an id so that a resend after an
 * unanswered request is a duplicate, not a second event. A 503 is retried every half second, as
 * an integration would.
 */
async function sendViaWeb(
  webUrl: string,
  flows: Flows,
  orderIds: string[],
  customerIds: string[],
  timeline: Timeline,
  spreadMs: number,
): Promise<WebFigures> {
  const events = [
    ...customerIds.map((id) => ({
      id: `ev-${id}`,
      type: "customer.created",
      domain: "customer",
      entityId: id,
    })),
    ...orderIds.map((id, i) => ({
      id: `ev-${id}`,
      type: i % 2 === 1 ? "order.paid" : "order.created",
      domain: "order",
      entityId: id,
    })),
  ];
  const chunks: (typeof events)[] = [];
  for (let i = 0; i < events.length; i += 20) chunks.push(events.slice(i, i + 20));
  const figures: WebFigures = {
    refused: 0,
    sentence: null,
    firstRefusalMs: null,
    recoveryMs: null,
    unanswered: 0,
  };
  for (const chunk of chunks) {
    for (;;) {
      let status = 0;
      try {
        const res = await fetch(`${webUrl}/api/v1/events`, {
          method: "POST",
          headers: { authorization: `Bearer ${flows.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(chunk),
          signal: AbortSignal.timeout(20_000),
        });
        status = res.status;
        const body = (await res.json()) as { error?: { message: string } };
        if (status === 503) {
          figures.refused++;
          figures.sentence ??= body.error?.message ?? null;
          if (timeline.cutAt && figures.firstRefusalMs === null)
            figures.firstRefusalMs = Date.now() - timeline.cutAt;
        } else if (status >= 400) {
          throw new Error(`The web server answered ${status}: ${JSON.stringify(body)}`);
        }
      } catch (error) {
        if (status >= 400 && status !== 503) throw error;
        if (status === 0) figures.unanswered++;
      }
      if (status === 200 || status === 201) {
        if (timeline.restoredAt && figures.recoveryMs === null)
          figures.recoveryMs = Date.now() - timeline.restoredAt;
        break;
      }
      await sleep(500);
    }
    await sleep(spreadMs / chunks.length);
  }
  return figures;
}

/** One round: a shop of its own, its traffic, one fault, and its figures once everything settled. */
async function round(cluster: Cluster, fault: Fault): Promise<FaultRow> {
  const { options } = cluster;
  const { log } = options;
  log(`\n${fault.name}`);
  await fetch(`${cluster.receiverUrl}/__delivered`, { method: "DELETE" });
  const flows = await createFlows(cluster.receiverUrl);
  const orders = Math.floor(options.runsPerFault / 4);
  const customers = Math.floor(options.runsPerFault / 4);
  const tag = Date.now().toString(36);
  const orderIds = Array.from({ length: orders }, (_, i) => `o-${tag}-${i}`);
  const customerIds = Array.from({ length: customers }, (_, i) => `c-${tag}-${String(i).padStart(6, "0")}`);
  await insertEntities(flows.tenantId, "order", orderIds);
  await insertEntities(flows.tenantId, "customer", customerIds);
  const expectedRuns = 2 * (orders + customers);
  const started = Date.now();
  const fencedBefore = fencedSoFar(options.logDir);
  let done = false;
  const running = () => !done;
  const problems: string[] = [];
  const background = [decideApprovals(flows, running, problems), hurryWaits(flows, running)];
  const timeline: Timeline = {};
  const sending = fault.viaWeb
    ? // Events keep coming for 5 s after the cut ends.
      sendViaWeb(cluster.webUrl, flows, orderIds, customerIds, timeline, options.webCutMs + 5_000)
    : recordInChunks(flows, orderIds, customerIds, 100, log).then(() => null);
  const [recoveries, web] = await Promise.all([fault.inject(cluster, timeline, problems), sending]);
  await patiently(() => runNow(flows.caller, flows.fanout), "schedule run-now", log);
  await settle([...flows.orders, flows.approvals, flows.fanout], expectedRuns, options.settleTimeoutMs);
  fault.heal?.(cluster);
  // A moment more: a duplicate run or effect would show up now.
  await sleep(2_000);
  done = true;
  await Promise.all(background);
  const delivered = new Map(
    Object.entries(
      (await (await fetch(`${cluster.receiverUrl}/__delivered`)).json()) as Record<string, number>,
    ),
  );
  if (web && web.unanswered > 0)
    problems.push(`${web.unanswered} event requests got no answer instead of a 503.`);
  const result = await tally({
    flows,
    delivered,
    options: { orders, customers },
    expectedRuns,
    kills: 0,
    postgresRestarts: 0,
    recoveries,
    started,
    problems,
  });
  return { fault: fault.name, fenced: fencedSoFar(options.logDir) - fencedBefore, web, ...result };
}

/** Starts a program on a host, its output in `logDir/<name>.log`. */
function startOn(prefix: string[], args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, "a");
  const child = spawn(prefix[0]!, [...prefix.slice(1), process.execPath, "--import", "tsx", ...args], {
    env,
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  return child;
}

async function waitFor(url: string, what: string): Promise<void> {
  for (const deadline = Date.now() + 90_000; ;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) throw new Error(`${what} did not come up within 90 s.`);
    await sleep(250);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(force);
}

/** The whole run: hosts up, a round per fault, everything down again; one row per fault. */
export async function runHostChaos(options: HostChaosOptions): Promise<FaultRow[]> {
  const { log, logDir } = options;
  fs.rmSync(logDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });
  if (!fs.existsSync(".next/BUILD_ID")) {
    log("No production build in .next: building it for the web host (npm run build)…");
    execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  }
  const hosts = new Hosts(["postgres", "web", "worker1", "worker2", "worker3", "receiver"]);
  const children: ChildProcess[] = [];
  let fleet: WorkerFleet | null = null;
  let stopPostgres: (() => Promise<void>) | null = null;
  let database: { serverUrl: string; name: string } | null = null;
  const slowLink = new Link({ host: hosts.host("postgres").address, port: 5432 });
  try {
    const pg = await startPostgresOn(hosts.host("postgres"));
    stopPostgres = pg.stop;
    const name = `chaos_hosts_${Date.now()}`;
    await createDatabaseIfMissing(pg.serverUrl, name);
    database = { serverUrl: pg.serverUrl, name };
    const url = databaseUrl(pg.serverUrl, name);
    await migrateDatabase(url);
    setEnv("DATABASE_URL", url);
    log(`Postgres on ${hosts.host("postgres").address}, database ${name}`);

    const receiver = hosts.host("receiver");
    children.push(
      startOn(
        receiver.exec,
        ["bench/chaos/receiver.ts", receiver.address, "8080"],
        process.env,
        path.join(logDir, "receiver.log"),
      ),
    );
    const receiverUrl = `http://${receiver.address}:8080`;
    await waitFor(`${receiverUrl}/__delivered`, "The receiver");

    const web = hosts.host("web");
    children.push(
      startOn(
        web.exec,
        ["server/index.ts"],
        {
          ...process.env,
          DATABASE_URL: url,
          PORT: "3000",
          NODE_ENV: "production",
          TILLFLOW_SCHEDULES: "off",
        },
        path.join(logDir, "web.log"),
      ),
    );
    const webUrl = `http://${web.address}:3000`;
    await waitFor(`${webUrl}/api/health?scope=web`, "The web server");

    const slowPort = await slowLink.listen(hosts.driverAddress);
    const slowUrl = new URL(url);
    slowUrl.host = `${hosts.driverAddress}:${slowPort}`;
    const workers = new WorkerFleet(
      3,
      {
        ...process.env,
        DATABASE_URL: url,
        HTTP_ACTION_ALLOW: receiver.address,
        TILLFLOW_SCHEDULES: "off",
        TILLFLOW_WORKER_DEAD_AFTER_MS: String(options.deadAfterMs),
      },
      logDir,
      log,
      (slot): { prefix: string[]; env: Record<string, string> } => ({
        prefix: hosts.host(`worker${slot + 1}`).exec,
        // Worker 2 reaches Postgres through a link the latency round can slow.
        env: slot === 1 ? { DATABASE_URL: slowUrl.toString() } : {},
      }),
    );
    fleet = workers;
    workers.startAll();
    log(
      `Web on ${web.address}, workers on ${[1, 2, 3].map((n) => hosts.host(`worker${n}`).address).join(", ")}, receiver on ${receiver.address}`,
    );

    const cluster: Cluster = { hosts, fleet: workers, slowLink, receiverUrl, webUrl, options };
    const rows: FaultRow[] = [];
    for (const fault of FAULTS) rows.push(await round(cluster, fault));
    if (workers.exitedByThemselves > 0)
      rows
        .at(-1)!
        .problems.push(`${workers.exitedByThemselves} worker(s) exited by themselves (see their logs).`);
    return rows;
  } finally {
    await fleet?.stopAll();
    await Promise.all(children.map(stop));
    await slowLink.close();
    await closeDb();
    if (database) {
      const sql = postgres(database.serverUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${database.name}" with (force)`).catch(() => {});
      await sql.end();
    }
    await stopPostgres?.().catch((error: unknown) => log(`Stopping Postgres failed: ${String(error)}`));
    hosts.remove();
  }
}

/** The table `npm run chaos -- --hosts` prints: a row per fault. */
export function hostsTable(rows: FaultRow[]): string {
  const head = [
    "fault",
    "runs",
    "lost",
    "duplicated",
    "resent (same key)",
    "refused by the fence",
    "max recovery",
    "max wake lateness",
    "round",
  ];
  const seconds = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);
  const body = rows.map((row) => [
    row.fault,
    `${row.runs}/${row.expectedRuns}`,
    String(row.lost + row.unsettled),
    String(row.duplicated + row.effectsWrong),
    String(row.resent),
    String(row.fenced),
    row.web
      ? `${seconds(row.web.recoveryMs)} (web)`
      : row.maxRecoveryMs > 0
        ? seconds(row.maxRecoveryMs)
        : "–",
    seconds(row.maxWaitLatenessMs),
    `${row.seconds} s`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/**
 * A round passed: the crash suite's verdict (every run settled and succeeded, nothing lost or
 * doubled, jobs free again within 30 s) and, for the web round, every request answered — 503 with
 * a sentence while cut off — and events accepted again within 30 s of the link's return.
 */
export function hostRoundPassed(row: FaultRow): boolean {
  if (!chaosPassed(row) || row.problems.length > 0) return false;
  if (!row.web) return true;
  return (
    row.web.refused > 0 &&
    row.web.unanswered === 0 &&
    row.web.sentence !== null &&
    row.web.recoveryMs !== null &&
    row.web.recoveryMs <= 30_000
  );
}
