/**
 * `npm start` (and `npm run dev` with `--dev`): everything a fresh clone needs, in one command.
 *
 *   build if needed → database (embedded unless DATABASE_URL) → migrate → seed the demo once
 *   → web server + worker side by side → print the URL and the demo sign-in
 *
 * Ctrl-C (or SIGTERM) stops the web server and the worker, then the embedded database.
 * Env: PORT (default 3000), DATABASE_URL, TILLFLOW_DATA_DIR, TILLFLOW_RESET=1 (start from an empty
 * database: the e2e tests use it).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { closeDb } from "@/lib/db/client";
import { ensureDatabaseUrl, resetEmbeddedDatabase, stopOwnedDatabase } from "@/lib/db/connection";
import { migrateDatabase } from "@/lib/db/migrate";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "@/lib/seed/demo";
import { childEnv } from "./child-env";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
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

function prefixOutput(child: ChildProcess, label: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n"))
        if (line.trim()) process.stdout.write(`${label} ${line}\n`);
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

async function main(): Promise<void> {
  if (!dev && buildIsStale()) {
    console.log("Building the app (first start or changed sources)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], {
      env: childEnv(process.env),
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("next build failed; see the output above.");
  }

  const url = await ensureDatabaseUrl();
  if (process.env.TILLFLOW_RESET === "1") await resetEmbeddedDatabase();
  await migrateDatabase(url);
  if (await seedDemo()) console.log("Seeded the demo shop “Demo Store”.");
  await closeDb();

  const env = childEnv(process.env, { DATABASE_URL: url, PORT: String(port) });
  const children: ChildProcess[] = [
    spawn(process.execPath, [nextBin, dev ? "dev" : "start", "-p", String(port)], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
    spawn(process.execPath, ["--import", "tsx", path.join(root, "worker/index.ts")], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ];
  prefixOutput(children[0]!, "[web]   ");
  prefixOutput(children[1]!, "[worker]");

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log("Stopping the web server and the worker…");
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
            child.once("exit", () => {
              clearTimeout(force);
              resolve();
            });
            child.kill("SIGTERM");
          }),
      ),
    );
    await stopOwnedDatabase();
    console.log("Stopped.");
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  for (const child of children) {
    child.once("exit", (code, signal) => {
      if (stopping) return;
      console.error(`A process exited unexpectedly (code ${code}, signal ${signal}); stopping everything.`);
      void shutdown(1);
    });
  }

  await waitForServer(`http://127.0.0.1:${port}/api/health`, 120_000);
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
  await stopOwnedDatabase();
  process.exit(1);
});
