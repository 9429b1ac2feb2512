import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "@/lib/db/embedded";
import { entrypointArgs } from "./entrypoints";

/**
 * The production web server (server/index.ts, what `npm start` runs, compiled once a run:
 * entrypoints.ts) in a child process, on this test file's database: Next.js from the production
 * build in `.next` (`npm run build` makes it), the direct routes, and the edge (server/edge.ts).
 * No worker: a test asks only the web server.
 */
export interface WebServer {
  baseUrl: string;
  port: number;
  pid: number;
  /** The server's resident memory now, from /proc, in bytes. */
  rssBytes(): number;
  /** What it printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

export async function startWebServer(env: Record<string, string> = {}): Promise<WebServer> {
  const root = process.cwd();
  if (!fs.existsSync(path.join(root, ".next/BUILD_ID")))
    throw new Error("There is no production build in .next: run `npm run build` first.");
  const port = await freePort();
  let output = "";
  const child: ChildProcess = spawn(process.execPath, entrypointArgs("server"), {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), TILLFLOW_SCHEDULES: "off", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The web server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The web server did not answer within 60 s:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health?scope=web`)).status < 500) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    port,
    pid: child.pid!,
    rssBytes() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
