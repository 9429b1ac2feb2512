import crypto from "node:crypto";
import os from "node:os";
import { EventEmitter } from "node:events";
import { parseCrontab, run, type Runner, type TaskList, type WorkerEvents } from "graphile-worker";
import pg from "pg";
import { crontabFor } from "@/lib/jobs";
import { serveMetrics } from "@/lib/metrics/serve";
import { workerLogger } from "@/lib/worker/logger";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";
import { WakeTimer } from "@/lib/automations/engine/wake-timer";
import {
  beat,
  BEAT_EVERY_MS,
  forceUnlock,
  hostIdentity,
  markStopped,
  registerWorker,
  sweepSilentWorkers,
  SWEEP_EVERY_MS,
} from "@/lib/worker/heartbeat";
import { whileDatabaseUnavailable } from "@/lib/db/connection";
import { tasks } from "./tasks";
import { resumeWaits } from "./tasks/automation-resume";

export interface WorkerHandle {
  workerId: string;
  /** The current graphile-worker runner (a new one if the last ended on its own, e.g. a lost database). */
  readonly runner: Runner;
  /** Resumes waits at their due time instead of at graphile-worker's next poll. */
  wakeTimer: WakeTimer;
  /** Stops taking jobs, waits for running ones, and records a clean stop. */
  stop(): Promise<void>;
}

export interface StartWorkerOptions {
  connectionString: string;
  /**
   * Jobs held at once by this process. Default 10,000 (or `WORKER_CONCURRENCY`): most wait on a
   * batch, holding no connection, and both outside calls and phase transactions have their
   * own small limits (see engine/limits.ts). Holding a whole storm of due waits at once is what
   * lets them all start within a second.
   */
  concurrency?: number;
  /** Install SIGINT/SIGTERM handlers. Default false: the caller owns shutdown. */
  handleSignals?: boolean;
  /** Run the crontab in this worker. Default true. */
  crontab?: boolean;
  /**
   * Jobs fetched (and locked) per round trip, served to this process's workers from memory.
   * Default the smaller of concurrency and 100 (or `WORKER_LOCAL_QUEUE`); 0 or 1 fetches one job
   * per worker per query (graphile-worker's default).
   */
  localQueueSize?: number;
  /** Milliseconds to gather job completions into one query; -1 completes each job on its own. Default 0 (same tick). */
  completeBatchDelay?: number;
  /** Extra tasks (benchmarks register a no-op). */
  extraTasks?: TaskList;
  /** Serve this process's metrics on the port (`GET /metrics`). Default `TILLFLOW_METRICS_PORT`, else none. */
  metricsPort?: number;
}

/**
 * graphile-worker's own connections: the pool stays far smaller than concurrency (jobs waiting on a
 * batch hold none). Their commits (a job locked, a job completed) do not wait for the disk: each
 * event costs two of them, and lost on a database crash they only mean a job runs again, which
 * finds its run or wait already claimed or replays it (every leg is keyed; SPEC §4). The engine's
 * own transactions, which record what a leg did and the jobs it adds, stay synchronous.
 */
function queuePool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, options: "-c synchronous_commit=off" });
  // An idle connection cut by a Postgres restart: the pool replaces it; graphile-worker retries.
  const failed = (error: Error) =>
    log().error({ err: error }, "A graphile-worker database connection failed.");
  pool.on("error", failed);
  pool.on("connect", (client) => client.on("error", failed));
  return pool;
}

/**
 * Starts graphile-worker with the typed task map and the crontab, registers this process in
 * `worker_heartbeats`, and keeps beating with the lock ids graphile-worker uses, so a sweeper can
 * release this worker's jobs if it is ever killed without a chance to clean up. It is such a
 * sweeper itself: once as it starts and then every few seconds it releases the jobs of dead peers
 * (see lib/worker/heartbeat.ts), so a killed worker's jobs run again within seconds. A WakeTimer takes
 * the jobs of waits due soon at their exact time (the poll alone would start them up to half a
 * second late); its lock id is in the heartbeat too, so the sweeper releases those jobs as well.
 */
export async function startWorker(options: StartWorkerOptions): Promise<WorkerHandle> {
  const workerId = `${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
  /** Every id this process locks jobs with: its runners' pool ids and its WakeTimer's. */
  const lockIds = new Set<string>();
  await registerWorker(workerId, hostIdentity(), process.pid);
  // A worker that starts (often: one restarted after a crash) frees its dead peers' jobs at once.
  const sweep = async () => {
    const swept = await sweepSilentWorkers(forceUnlock, { self: workerId });
    if (swept.length > 0)
      log().warn(
        { workers: swept },
        `Released the jobs of workers that stopped beating: ${swept.join(", ")}.`,
      );
  };
  await sweep().catch((error: unknown) =>
    log().error({ err: error }, "Sweeping dead workers failed; will retry."),
  );
  // Most jobs spend their time waiting for a batch (see RunBatcher), so concurrency is cheap.
  const concurrency = options.concurrency ?? config().WORKER_CONCURRENCY;
  // At most 100 jobs fetched (and locked, each attempt counted) per round trip. A process that
  // took all of a backlog and was then killed took every job's attempt with it (the chaos suite
  // saw a few such kills use up the attempts of thousands of jobs); and the jobs fetched wait here
  // in the order they came, so another shop's job, next in the queue's fair order
  // (lib/queue/fair-share.ts), would wait behind all of them (1,000: 1.7 s; 100: 0.4 s).
  const localQueueSize = options.localQueueSize ?? Math.min(concurrency, config().WORKER_LOCAL_QUEUE);
  // The pool ids of each runner: graphile-worker 0.17 locks every job with its pool's id (the
  // individual workers' ids never appear in `locked_by`), so these are what the heartbeat reports.
  const poolIdsOf = new Map<Runner, string[]>();
  const startRunner = async () => {
    const poolIds: string[] = [];
    // Listen before run() starts: the pool is created during the call.
    const events = new EventEmitter() as WorkerEvents;
    events.on("pool:create", ({ workerPool }) => {
      poolIds.push(workerPool.id);
      lockIds.add(workerPool.id);
    });
    const pgPool = queuePool(options.connectionString, Math.min(concurrency, 16));
    const started = await run({
      events,
      logger: workerLogger,
      pgPool,
      concurrency,
      // Batched fetching and completion: several times the throughput of one query per job.
      preset: {
        worker: {
          // A fetch that found nothing (another worker took the job its NOTIFY announced) waits
          // about 10 ms before the next: with several workers, every new job woke all of them
          // and each asked the database, so Postgres did the fetch once per worker.
          ...(localQueueSize > 1
            ? { localQueue: { size: localQueueSize, refetchDelay: { durationMs: 10, threshold: 0 } } }
            : {}),
          completeJobBatchDelay: options.completeBatchDelay ?? 0,
          failJobBatchDelay: options.completeBatchDelay ?? 0,
        },
      },
      noHandleSignals: !options.handleSignals,
      // Due jobs (laters, and waits the WakeTimer did not take) are found by polling: this bounds
      // how late one can start.
      pollInterval: 250,
      taskList: { ...tasks, ...options.extraTasks },
      parsedCronItems: options.crontab === false ? [] : parseCrontab(crontabFor()),
    });
    poolIdsOf.set(started, poolIds);
    // graphile-worker does not end a pool it was given.
    void started.promise.finally(() => pgPool.end().catch(() => {}));
    return started;
  };
  let runner = await startRunner();
  let stopping: Promise<void> | null = null;
  /**
   * graphile-worker rides out a short Postgres restart (its pool retries), but gives up when it
   * cannot record finished jobs for a while ("queue is in an inconsistent state"): its pool exits
   * and the jobs it had fetched stay locked by its id, held by nobody, for four hours. This
   * process is alive, so no sweeper would free them: free them here, then start a new runner.
   */
  const watch = (current: Runner) => {
    void current.promise
      .catch((error: unknown) => log().error({ err: error }, "graphile-worker stopped with an error."))
      .then(async () => {
        if (stopping) return;
        const orphaned = poolIdsOf.get(current) ?? [];
        poolIdsOf.delete(current);
        log().error("graphile-worker stopped by itself; releasing its jobs and starting it again.");
        while (!stopping) {
          try {
            await whileDatabaseUnavailable("releasing the stopped runner's jobs", () =>
              forceUnlock(orphaned),
            );
            for (const id of orphaned) lockIds.delete(id);
            const next = await whileDatabaseUnavailable("starting graphile-worker again", startRunner);
            runner = next;
            watch(next);
            if (stopping) await next.stop();
            log().info("graphile-worker is running again.");
            return;
          } catch (error) {
            log().error({ err: error }, "graphile-worker could not start again; will retry in 1 s.");
            await new Promise((r) => setTimeout(r, 1_000));
          }
        }
      });
  };
  watch(runner);

  const wakeTimer = new WakeTimer({ lockId: `${workerId}-wake`, resume: resumeWaits });
  lockIds.add(wakeTimer.lockId);

  const sendBeat = () =>
    beat(workerId, [...lockIds])
      .then((live) => {
        if (!live)
          log().warn("A peer had declared this worker dead (its heartbeats were late); beating again.");
      })
      .catch((error: unknown) => log().error({ err: error }, "Worker heartbeat failed; will retry."));
  await sendBeat();
  // Only once the heartbeat names its lock id: a job it locks must be one the sweeper can free.
  wakeTimer.start();
  const timer = setInterval(sendBeat, BEAT_EVERY_MS);
  timer.unref();
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => log().error({ err: error }, "Sweeping dead workers failed; will retry."))
      .finally(() => (sweeping = false));
  }, SWEEP_EVERY_MS);
  sweeper.unref();
  const metricsPort = options.metricsPort ?? config().TILLFLOW_METRICS_PORT;
  const metricsServer = metricsPort === undefined ? null : await serveMetrics(metricsPort);

  return {
    workerId,
    get runner() {
      return runner;
    },
    wakeTimer,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(timer);
        clearInterval(sweeper);
        // First, so the jobs of waits not yet woken are left unlocked for graphile-worker.
        await wakeTimer.stop();
        await runner.stop();
        await markStopped(workerId);
        metricsServer?.closeAllConnections();
        await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(null)));
      })()),
  };
}
