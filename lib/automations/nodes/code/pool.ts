import "server-only";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { SCRIPT_LIMITS, type ScriptInput, type ScriptOutcome } from "./sandbox";
import type { ThreadReady, ThreadReply, ThreadTask } from "./script-thread";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";

/**
 * The script pool: every code step — a run's, a dry run's, "Run on a record" — runs on one of a
 * few worker threads, never on the event loop of the web server or the worker, so a script that
 * loops for its whole second delays nobody's request or leg.
 *
 * - **Bounded.** At most `threads` at once (`CODE_THREADS`, default the machine's cores, 2 to 4);
 *   the rest wait in line.
 * - **Fair.** One shop runs at most half of them at once; waiting scripts are taken shop by shop in
 *   turn, so one shop's hundred scripts wait behind each other, not in front of another shop's one.
 * - **Replaced.** A thread whose script hit a limit (CPU, wall time, memory), or whose WebAssembly
 *   memory grew past `recycleBytes`, is ended and a fresh one started when needed: QuickJS's
 *   memory never shrinks, and ending the thread is what gives it back to the system. The shop whose
 *   script ended a thread starts its replacement; the warm idle threads stay with the others.
 * - **Hard-stopped.** A thread that does not answer within the wall-time limit and a margin is
 *   terminated, and its script fails with the wall-time sentence. The time counts from when the
 *   thread has loaded: a fresh thread's start (tsx compiling the sandbox and the node registry,
 *   QuickJS) is not the script's, and takes seconds on a cold cache with both cores busy.
 */

export interface ScriptPoolOptions {
  threads?: number;
  /** A thread whose WebAssembly memory is larger than this after a script is replaced. */
  recycleBytes?: number;
  /** The threads' file, `script-thread.mjs` unless given (a test's thread that loads slowly). */
  threadFile?: string;
}

interface Job {
  shop: string;
  task: ThreadTask;
  resolve: (outcome: ScriptOutcome) => void;
}

// Resolved at run time, from the project's root: the thread is compiled by tsx when it starts, and
// Next.js must not bundle it (or tsx, which it imports) into the web server.
const THREAD_FILE = path.join(
  /* turbopackIgnore: true */ process.cwd(),
  "lib/automations/nodes/code/script-thread.mjs",
);
/** Past the sandbox's own wall-time limit, the pool stops waiting for the thread. */
const HARD_STOP_MARGIN_MS = 2_000;
/** A fresh thread that has not loaded by then is ended, and its script fails without running. */
const START_LIMIT_MS = 60_000;

const defaultThreads = () => config().CODE_THREADS ?? Math.min(4, Math.max(2, os.availableParallelism()));

const failure = (error: string, ms: number, limit?: "wall"): ScriptOutcome => ({
  ok: false,
  error,
  line: null,
  ms,
  ...(limit ? { limit } : {}),
});

export class ScriptPool {
  readonly threads: number;
  /** The most threads one shop's scripts hold at once: half the pool, at least one. */
  readonly perShop: number;
  private readonly recycleBytes: number;
  private readonly threadFile: string;
  private readonly idle: Worker[] = [];
  private alive = 0;
  private readonly running = new Map<string, number>();
  /** What to do when a busy thread answers or breaks. */
  private readonly busy = new Map<Worker, { reply(reply: ThreadReply): void; broke(error: unknown): void }>();
  /** Threads ended on purpose (their exit is expected). */
  private readonly retired = new WeakSet<Worker>();
  /** Threads that have loaded (said they are ready). */
  private readonly loaded = new WeakSet<Worker>();
  /** A fresh thread's first script, started when the thread has loaded. */
  private readonly onLoad = new Map<Worker, () => void>();
  /** Waiting scripts per shop; the map's order is the shops' turn order. */
  private readonly waiting = new Map<string, Job[]>();
  /**
   * Shops whose last script ended its thread: their next script starts a fresh thread rather than
   * take an idle one, which stays with the other shops. Otherwise every script of a shop looping
   * to its limit would take the warm thread another shop's next script was about to use, and that
   * one would wait for a thread to start (about half a second of CPU: tsx, the node registry,
   * QuickJS) once per loop (`npm run bench -- code`).
   */
  private readonly replacing = new Set<string>();

  constructor(options: ScriptPoolOptions = {}) {
    this.threads = Math.max(1, options.threads ?? defaultThreads());
    this.perShop = Math.max(1, Math.floor(this.threads / 2));
    this.recycleBytes = options.recycleBytes ?? 32 * 1024 * 1024;
    this.threadFile = options.threadFile ?? THREAD_FILE;
  }

  /** Runs `source` for `shop` on a thread of the pool; like the sandbox, never throws for the script. */
  run(shop: string, source: string, input: ScriptInput): Promise<ScriptOutcome> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(shop) ?? [];
      queue.push({ shop, task: { source, input }, resolve });
      this.waiting.set(shop, queue);
      this.pump();
    });
  }

  /** Ends every idle thread (tests; a process ending ends them anyway). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    for (const worker of idle) this.retire(worker);
    await Promise.all(idle.map((worker) => worker.terminate()));
  }

  private pump(): void {
    while (this.idle.length > 0 || this.alive < this.threads) {
      const job = this.nextJob();
      if (!job) return;
      const fresh = this.replacing.delete(job.shop) && this.alive < this.threads;
      const worker = (fresh ? undefined : this.idle.pop()) ?? this.spawn();
      this.running.set(job.shop, (this.running.get(job.shop) ?? 0) + 1);
      this.execute(worker, job);
    }
  }

  /** The first waiting script of the first shop in turn that is under its share; that shop goes last. */
  private nextJob(): Job | undefined {
    for (const [shop, queue] of this.waiting) {
      if ((this.running.get(shop) ?? 0) >= this.perShop) continue;
      const job = queue.shift()!;
      this.waiting.delete(shop);
      if (queue.length > 0) this.waiting.set(shop, queue);
      return job;
    }
    return undefined;
  }

  private spawn(): Worker {
    this.alive++;
    const worker = new Worker(/* turbopackIgnore: true */ this.threadFile);
    worker.on("message", (message: ThreadReply | ThreadReady) => {
      if (!("ready" in message)) return this.busy.get(worker)?.reply(message);
      this.loaded.add(worker);
      this.onLoad.get(worker)?.();
    });
    // An error is followed by the thread's exit.
    worker.on("error", (error) => this.busy.get(worker)?.broke(error));
    worker.on("exit", (code) => {
      const current = this.busy.get(worker);
      if (current) return current.broke(`exit code ${code}`);
      if (this.retired.has(worker)) return;
      // An idle thread that died: forget it; the next script starts a fresh one.
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.alive--;
    });
    return worker;
  }

  private retire(worker: Worker): void {
    this.retired.add(worker);
    this.alive--;
    void worker.terminate();
  }

  private execute(worker: Worker, job: Job): void {
    let started: number | null = null;
    const ms = () => (started === null ? 0 : Math.round(performance.now() - started));
    let stop: NodeJS.Timeout | undefined;
    const finish = (outcome: ScriptOutcome, keep: boolean) => {
      if (!this.busy.delete(worker)) return;
      clearTimeout(stop);
      this.onLoad.delete(worker);
      const left = (this.running.get(job.shop) ?? 1) - 1;
      if (left > 0) this.running.set(job.shop, left);
      else this.running.delete(job.shop);
      if (keep) {
        // An idle thread does not keep the process alive.
        worker.unref();
        this.idle.push(worker);
      } else {
        this.retire(worker);
        if (this.waiting.has(job.shop)) this.replacing.add(job.shop);
      }
      job.resolve(outcome);
      this.pump();
    };
    const start = () => {
      this.onLoad.delete(worker);
      clearTimeout(stop);
      started = performance.now();
      stop = setTimeout(
        () => finish(failure("The script took more than 10 seconds and was stopped.", ms(), "wall"), false),
        SCRIPT_LIMITS.wallMs + HARD_STOP_MARGIN_MS,
      );
      worker.postMessage(job.task);
    };
    this.busy.set(worker, {
      reply: (reply) =>
        finish(
          reply.outcome,
          !(!reply.outcome.ok && reply.outcome.limit) && reply.memoryBytes <= this.recycleBytes,
        ),
      broke: (error) => {
        log().error({ err: error }, "A code step's thread stopped unexpectedly:");
        finish(
          failure("The code step's sandbox stopped unexpectedly; the script did not finish.", ms()),
          false,
        );
      },
    });
    worker.ref();
    if (this.loaded.has(worker)) return start();
    this.onLoad.set(worker, start);
    stop = setTimeout(() => {
      log().error("A code step's thread did not load within a minute.");
      finish(failure("The code step's sandbox did not start in time; the script did not run.", 0), false);
    }, START_LIMIT_MS);
  }
}

let shared: ScriptPool | null = null;

/**
 * Runs a merchant's script for `shop` on the process's script pool (created on first use) and
 * says what it returned, asked for, or why it failed. Never throws for anything the script does.
 */
export function runScript(shop: string, source: string, input: ScriptInput): Promise<ScriptOutcome> {
  shared ??= new ScriptPool();
  return shared.run(shop, source, input);
}
