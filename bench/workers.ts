/**
 * `npm run bench -- workers`: the same load with 1, 2 and 4 worker processes against one Postgres,
 * and the CPU each process used — where the time goes as workers are added.
 *
 *   live     `bench -- live`'s four sections (bench/live.ts) against the production web server
 *            (`npm start` with TILLFLOW_WORKER=off, a fresh data dir each time) and N
 *            `tillflow worker` processes on its database: runs settled/s for single events and
 *            for arrays, event → run settled p50/p95/p99 at a fixed rate.
 *   backlog  `bench -- engine`'s flow (bench/engine.ts): a backlog of BENCH_WORKERS_BACKLOG queued
 *            runs, parked (run_at an hour away) while the N workers start and beat, then released
 *            at once: runs/s from release to the last run settled.
 *
 * CPU (bench/cpu.ts, /proc utime + stime, reaped children included) is read before and after each
 * measured part, for every worker process, the web server (the launcher's process group),
 * Postgres (postmaster and backends) and this process (the load generator); shown in CPU seconds
 * and as cores busy (CPU seconds / wall seconds). On a machine with C cores, a total near C is
 * saturation: adding workers then only moves CPU around. `CoresBusyMachine` is the whole machine
 * (other people's work included): on a shared machine, what the measured processes did not get.
 * The live scenario's CPU covers its set-up and warm-up too (creating the orders over the API).
 *
 * Sizes (env): BENCH_WORKERS_COUNTS (1,2,4), BENCH_WORKERS_SCENARIOS (live,backlog),
 * BENCH_WORKERS_BACKLOG (20000), and the BENCH_LIVE_* sizes of bench/live.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { dataRoot } from "@/lib/db/embedded";
import os from "node:os";
import { cpuMark, groupProbe, machineProbe, postgresProbe, processProbe, selfProbe, type Probe } from "./cpu";
import { checkBacklog, createEngineFlow, seedOrderBacklog, waitForBacklogDrained } from "./engine";
import { benchDatabase, report, waitUntil, type Metrics } from "./harness";
import { liveSections } from "./live";
import { startLiveApp } from "./live-app";

const COUNTS = (process.env.BENCH_WORKERS_COUNTS ?? "1,2,4").split(",").map(Number);
const SCENARIOS = (process.env.BENCH_WORKERS_SCENARIOS ?? "live,backlog").split(",");
const BACKLOG = Number(process.env.BENCH_WORKERS_BACKLOG ?? 20_000);

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

export interface Workers {
  children: ChildProcess[];
  probes: Record<string, Probe>;
  stop(): Promise<void>;
}

/**
 * `count` worker processes as `npm run worker` starts them, on `databaseUrl`, returned once each
 * one beats (`worker_heartbeats`, read through `heartbeatsAlive`).
 */
export async function startWorkers(
  count: number,
  databaseUrl: string,
  heartbeatsAlive: () => Promise<number>,
): Promise<Workers> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        HTTP_ACTION_ALLOW: "127.0.0.1,localhost",
        // The schedules' heartbeat is not what is measured.
        TILLFLOW_SCHEDULES: "off",
      },
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill("SIGKILL"), 30_000);
            child.once("exit", () => {
              clearTimeout(force);
              resolve();
            });
            child.kill("SIGTERM");
          }),
      ),
    );
  };
  try {
    await waitUntil(async () => {
      if (children.some((c) => c.exitCode !== null)) throw new Error("A worker process exited at start.");
      return (await heartbeatsAlive()) >= count;
    }, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const probes = Object.fromEntries(children.map((c, i) => [`worker${i + 1}`, processProbe(c.pid!)]));
  return { children, probes, stop };
}

/**
 * CPU seconds per probe and in total, and cores busy (seconds / wall seconds), as metrics.
 * `Machine` is everything on the machine (others' work too), shown beside the cores it has.
 */
function cpuMetrics(prefix: string, measured: Record<string, number>, wallSeconds: number): Metrics {
  const { Machine: machine = 0, ...cpu } = measured;
  const workers = Object.entries(cpu).filter(([k]) => k.startsWith("worker"));
  const workerTotal = workers.reduce((s, [, v]) => s + v, 0);
  const total = Object.values(cpu).reduce((s, v) => s + v, 0);
  const out: Metrics = {
    [`${prefix}WallSeconds`]: round(wallSeconds, 1),
    [`${prefix}CpuWorkers`]: workers.map(([, v]) => v.toFixed(1)).join("/"),
    [`${prefix}CpuWorkersTotal`]: round(workerTotal, 1),
  };
  for (const [k, v] of Object.entries(cpu))
    if (!k.startsWith("worker")) out[`${prefix}Cpu${k}`] = round(v, 1);
  out[`${prefix}CoresBusy`] = round(total / wallSeconds, 2);
  out[`${prefix}CoresBusyWorkers`] = round(workerTotal / wallSeconds, 2);
  out[`${prefix}CoresBusyPostgres`] = round((cpu.Postgres ?? 0) / wallSeconds, 2);
  out[`${prefix}CoresBusyMachine`] = round(machine / wallSeconds, 2);
  out[`${prefix}CoresOnMachine`] = os.cpus().length;
  return out;
}

async function liveWith(count: number): Promise<Metrics> {
  // startLiveApp points this process at the app's data dir and database (to make its API key);
  // the backlog scenario that follows needs its own again.
  const before = { dataDir: process.env.TILLFLOW_DATA_DIR, url: process.env.DATABASE_URL };
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  const app = await startLiveApp({ worker: false });
  let workers: Workers | null = null;
  try {
    // The app's health reports the running workers; the bench's own pool is not involved.
    const alive = async () => {
      const res = await fetch(`${app.baseUrl}/api/health?scope=web`);
      const body = (await res.json()) as { workerDetail?: { running?: number } | null };
      return body.workerDetail?.running ?? 0;
    };
    workers = await startWorkers(count, app.databaseUrl, alive);
    console.log(`live: ${count} worker process(es) running; the four sections follow.`);
    const probes = {
      ...workers.probes,
      Web: groupProbe(app.pid),
      Postgres: postgresProbe(path.join(app.dataDir, "pg")),
      Bench: selfProbe,
      Machine: machineProbe,
    };
    // Measured from the moment the orders and the flow exist (their set-up is not the load).
    let mark = cpuMark(probes);
    let started = performance.now();
    const metrics = await liveSections(app, () => {
      mark = cpuMark(probes);
      started = performance.now();
    });
    const wall = (performance.now() - started) / 1000;
    const cpu = mark.since();
    return {
      liveSingleSettledPerSecond: metrics.singleSettledPerSecond!,
      liveSingleAcceptP50Ms: metrics.singleAcceptP50Ms!,
      liveSingleBacklogGrew: metrics.singleBacklogGrew!,
      liveArraySettledPerSecond: metrics.arraySettledPerSecond ?? NaN,
      liveOpenSettledP50Ms: metrics.openSettledP50Ms!,
      liveOpenSettledP95Ms: metrics.openSettledP95Ms!,
      liveOpenSettledP99Ms: metrics.openSettledP99Ms!,
      liveRunsFailed:
        Number(metrics.singleRunsFailed) +
        Number(metrics.arrayRunsFailed ?? 0) +
        Number(metrics.openRunsFailed),
      liveEventsAccepted: metrics.eventsAccepted!,
      livePostgresMsPerEvent: round(((cpu.Postgres ?? 0) * 1000) / Number(metrics.eventsAccepted), 2),
      ...cpuMetrics("live", cpu, wall),
    };
  } finally {
    await workers?.stop();
    await app.stop();
    restore("TILLFLOW_DATA_DIR", before.dataDir);
    restore("DATABASE_URL", before.url);
  }
}

async function backlogWith(count: number): Promise<Metrics> {
  const db = await benchDatabase(`workers${count}`);
  let workers: Workers | null = null;
  try {
    const { tenantId } = await createEngineFlow();
    const prefix = `w${count}-`;
    await seedOrderBacklog(tenantId, prefix, BACKLOG);
    // Parked while the workers start (loading the code costs each a second or two of CPU, which is
    // not what is measured), then released in one statement.
    const reschedule = (at: string) =>
      getDb().execute(sql`
        select count(*)::int as n from graphile_worker.reschedule_jobs(
          array(select id from graphile_worker.jobs), run_at => ${at}::timestamptz)`);
    await reschedule(new Date(Date.now() + 3_600_000).toISOString());
    const alive = async () => {
      const [row] = await getDb().execute<{ n: number }>(sql`
        select count(*)::int as n from worker_heartbeats
        where stopped_at is null and last_seen_at > now() - interval '15 seconds'`);
      return row!.n;
    };
    workers = await startWorkers(count, db.url, alive);
    const mark = cpuMark({
      ...workers.probes,
      Postgres: postgresProbe(path.join(dataRoot(), "bench-pg")),
      Bench: selfProbe,
      Machine: machineProbe,
    });
    const started = performance.now();
    await reschedule(new Date().toISOString());
    await waitForBacklogDrained();
    const wall = (performance.now() - started) / 1000;
    const cpu = mark.since();
    await checkBacklog(prefix, BACKLOG);
    return {
      backlogRuns: BACKLOG,
      backlogRunsPerSecond: round(BACKLOG / wall),
      backlogPostgresMsPerRun: round(((cpu.Postgres ?? 0) * 1000) / BACKLOG, 2),
      ...cpuMetrics("backlog", cpu, wall),
    };
  } finally {
    await workers?.stop();
    await db.drop();
  }
}

export async function benchWorkers(): Promise<void> {
  const results: { workers: number; metrics: Metrics }[] = [];
  for (const count of COUNTS) {
    const metrics: Metrics = { workers: count };
    if (SCENARIOS.includes("backlog")) {
      console.log(`\nbacklog: ${BACKLOG} queued runs, ${count} worker process(es)…`);
      Object.assign(metrics, await backlogWith(count));
    }
    if (SCENARIOS.includes("live")) {
      console.log(`\nlive: the production server and ${count} worker process(es)…`);
      Object.assign(metrics, await liveWith(count));
    }
    results.push({ workers: count, metrics });
  }
  const keys = [...new Set(results.flatMap((r) => Object.keys(r.metrics)))].filter((k) => k !== "workers");
  const shown = (v: Metrics[string] | undefined) =>
    typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : String(v ?? "");
  const width = Math.max(...keys.map((k) => k.length));
  const cell = Math.max(12, ...results.flatMap((r) => keys.map((k) => shown(r.metrics[k]).length))) + 2;
  console.log(`\nworkers (one Postgres; ${COUNTS.join(", ")} worker processes)`);
  console.log(`  ${"".padEnd(width)}${results.map((r) => `${r.workers} worker(s)`.padStart(cell)).join("")}`);
  for (const key of keys)
    console.log(`  ${key.padEnd(width)}${results.map((r) => shown(r.metrics[key]).padStart(cell)).join("")}`);
  const flat: Metrics = { counts: COUNTS.join(","), scenarios: SCENARIOS.join(","), backlog: BACKLOG };
  for (const r of results)
    for (const [k, v] of Object.entries(r.metrics)) if (k !== "workers") flat[`w${r.workers}.${k}`] = v;
  report("workers", flat, { table: false });
}
