/**
 * `npm start` (and `npm run dev` with `--dev`): everything a fresh clone needs, in one command.
 *
 *   build if needed, and meanwhile: database (embedded unless DATABASE_URL) → migrate → seed the
 *   demo once → web server + worker side by side → print the URL and the demo sign-in
 *
 * Ctrl-C (SIGINT, to the launcher alone or to its whole process group), SIGTERM or SIGHUP stops the
 * web server and the worker, then the embedded database, and prints "Stopped." — however many
 * signals arrive and whichever process dies first.
 * Env: PORT (default 3000), DATABASE_URL, TILLFLOW_DATA_DIR, TILLFLOW_RESET=1 (start from an empty
 * database: the e2e tests use it), TILLFLOW_WEB=off (the database and the worker only, no build:
 * a worker-only host, and the launcher's own tests), TILLFLOW_WORKER=off (the database and the web
 * server only: workers run elsewhere, as `tillflow worker` processes; `bench -- workers` uses it).
 */
import "@/lib/config/check-at-start";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { closeDb } from "@/lib/db/client";
import { ensureDatabaseUrl, resetEmbeddedDatabase, stopOwnedDatabase } from "@/lib/db/connection";
import { migrateDatabase } from "@/lib/migrate";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "@/lib/seed/demo";
import { childEnvironment, config } from "@/lib/config/config";
import { childEnv } from "./child-env";

const dev = process.argv.includes("--dev");
const web = config().TILLFLOW_WEB;
const runWorker = config().TILLFLOW_WORKER || !web;
const port = config().PORT;
// The children write to pipes, which would make them log JSON: they log as this terminal would.
const logFormat = config().LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json");
const root = process.cwd();
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "next.config.ts",
  "package-lock.json",
  "postcss.config.mjs",
];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** A production build is stale when any source file changed after it was made. */
function buildIsStale(): boolean {
  const buildId = fs.statSync(path.join(root, ".next/BUILD_ID"), { throwIfNoEntry: false });
  if (!buildId) return true;
  return SOURCES.some((entry) => newestMtime(path.join(root, entry)) > buildId.mtimeMs);
}

function prefixOutput(child: ChildProcess, label: string, onLine?: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    // A chunk may end mid-line: the rest waits for the next one, so a JSON line is never cut in two.
    let partial = "";
    stream?.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      let out = "";
      for (const line of lines) {
        if (!line.trim()) continue;
        // A JSON line stays one, to be shipped as it is (its pid says which process wrote it).
        out += line.startsWith("{") ? `${line}\n` : `${label} ${line}\n`;
        onLine?.(line);
      }
      // One write per chunk: under load a chunk holds hundreds of request lines.
      if (out) process.stdout.write(out);
    });
    stream?.on("end", () => {
      if (partial.trim())
        process.stdout.write(partial.startsWith("{") ? `${partial}\n` : `${label} ${partial}\n`);
    });
  }
}

async function waitForServer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`The web server did not answer on ${url} within ${timeoutMs / 1000}s.`);
}

const children: ChildProcess[] = [];

/**
 * `next build` for `npm start`. Types are not checked here: `npm test` (tsc over the whole
 * project, before its own build) and `npm run typecheck` do that, and Next's second look at the
 * same files would add about 30 s to a fresh clone's first start.
 */
function build(): Promise<void> {
  console.log("Building the app (first start or changed sources)…");
  const child = spawn(process.execPath, [nextBin, "build"], {
    env: childEnv(childEnvironment(), { TILLFLOW_SKIP_BUILD_TYPECHECK: "1" }),
    stdio: "inherit",
  });
  // Among the children while it runs, so a stop ends it too.
  children.push(child);
  return new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      children.splice(children.indexOf(child), 1);
      if (code === 0 || stopping) resolve();
      else reject(new Error("next build failed; see the output above."));
    });
  });
}

/** Settles once the database is started, migrated and seeded (or failed to be). */
let databaseReady: Promise<unknown> = Promise.resolve();
let stopping: Promise<void> | null = null;

/** Asks a child to stop (SIGTERM), and kills it if it has not exited after 15 s. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    // It may have exited a moment ago (a Ctrl-C reaches the whole group); then this does nothing.
    child.kill("SIGTERM");
  });
}

/**
 * Stops everything once, whatever calls it how often: a Ctrl-C in a terminal reaches the whole
 * process group (and npm forwards it again), so the children may already be gone and a second
 * signal may arrive mid-shutdown. Every step runs even if an earlier one failed, so the database
 * is stopped and "Stopped." printed every time.
 */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    // A start-up failure before anything ran ends with its own message, not a stop report.
    const announce = children.length > 0 || code === 0;
    if (announce) console.log(web ? "Stopping the web server and the worker…" : "Stopping the worker…");
    let exitCode = code;
    await Promise.all(children.map(stopChild));
    // A signal during start-up: let the database step finish, so a cluster it started is stopped.
    await databaseReady.catch(() => {});
    try {
      await closeDb();
      await stopOwnedDatabase();
    } catch (error) {
      console.error(
        `The database did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`,
      );
      exitCode ||= 1;
    }
    if (announce) console.log("Stopped.");
    process.exit(exitCode);
  })();
  return stopping;
}

async function main(): Promise<void> {
  // A reader that went away (a closed pipe) must not crash the launcher mid-shutdown: the
  // database still has to be stopped.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
  // Installed first: a Ctrl-C during the build or the migration must still stop the database.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0));

  // The database starts, migrates and seeds while the app builds: a first start waits for the
  // longer of the two, not for both one after the other.
  const prepared = (async () => {
    const url = await ensureDatabaseUrl();
    if (config().TILLFLOW_RESET) await resetEmbeddedDatabase();
    await migrateDatabase(url);
    if (await seedDemo()) console.log("Seeded the demo shop “Demo Store”.");
    for (let n = 2; n <= config().TILLFLOW_DEMO_SHOPS; n++) await seedDemo(n);
    await closeDb();
    return url;
  })();
  databaseReady = prepared;
  // A database that cannot start ends the start at once, with its own message, not after the build.
  if (web && !dev && buildIsStale()) await Promise.all([build(), prepared]);
  const url = await prepared;
  if (stopping) return;

  const env = childEnv(childEnvironment(), { DATABASE_URL: url, PORT: String(port), LOG_FORMAT: logFormat });
  let workerRunning!: () => void;
  const workerStarted = new Promise<void>((resolve) => (workerRunning = resolve));
  if (web) {
    const command = dev
      ? [nextBin, "dev", "-p", String(port)]
      : ["--import", "tsx", path.join(root, "server/index.ts")];
    const server = spawn(process.execPath, command, {
      env: dev ? env : { ...env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(server);
    prefixOutput(server, "[web]   ");
  }
  if (runWorker) {
    const worker = spawn(process.execPath, ["--import", "tsx", path.join(root, "worker/index.ts")], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(worker);
    prefixOutput(worker, "[worker]", (line) => {
      if (line.includes("is running")) workerRunning();
    });
  }

  for (const child of children) {
    child.once("exit", (code, signal) => {
      if (stopping) return;
      console.error(`A process exited unexpectedly (code ${code}, signal ${signal}); stopping everything.`);
      void shutdown(1);
    });
  }

  if (!web) {
    await workerStarted;
    if (stopping) return;
    console.log(
      [
        "",
        "  Tillflow's worker is running (TILLFLOW_WEB=off: no web server).",
        "  Press Ctrl-C to stop.",
        "",
      ].join("\n"),
    );
    return;
  }
  await waitForServer(`http://127.0.0.1:${port}/api/health`, 120_000);
  if (stopping) return;
  const users = DEMO_USERS.map((u) => u.email).join(", ");
  console.log(
    [
      "",
      `  Tillflow is running at http://localhost:${port}`,
      `  Sign in as ${users} with password ${DEMO_PASSWORD}`,
      "  Press Ctrl-C to stop.",
      "",
    ].join("\n"),
  );
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  await shutdown(1);
});
