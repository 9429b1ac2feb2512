/**
 * `npm test`: every check the project has, in order, and one closing line `N passed, N failed`
 * totalled over all suites. Lint, types, schema drift and the build count as one check each;
 * the unit/integration (vitest) and end-to-end (Playwright) suites count their tests.
 * A failing step does not hide the others' results; the exit code is non-zero if anything failed.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childEnvironment } from "@/lib/config/config";

interface Tally {
  name: string;
  passed: number;
  failed: number;
}

const tallies: Tally[] = [];
fs.mkdirSync("test-results", { recursive: true });

function run(command: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: childEnvironment(env) });
  return result.status === 0;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/**
 * Which tests failed, a line each with the first line of why, for the summary: CI shows only the
 * end of the output, and vitest's own list of failures is far above it.
 */
function failedTests(report: VitestReport): string[] {
  const firstLine = (text: string | undefined) => (text ?? "").trim().split("\n")[0]!.slice(0, 240);
  return report.testResults.flatMap((file) => {
    const where = path.relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    if (failed.length === 0 && file.status === "failed") return [`${where}: ${firstLine(file.message)}`];
    return failed.map((test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
  });
}

interface Command {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Runs commands side by side, each one's output kept and printed whole, in order, when all are done. */
async function runAtOnce(commands: Command[]): Promise<boolean[]> {
  const results = await Promise.all(
    commands.map(
      ({ command, args, env = {} }) =>
        new Promise<{ ok: boolean; output: string }>((resolve) => {
          let output = "";
          const child = spawn(command, args, {
            stdio: ["ignore", "pipe", "pipe"],
            env: childEnvironment(env),
          });
          child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.on("close", (code) => resolve({ ok: code === 0, output }));
        }),
    ),
  );
  return commands.map(({ command, args, env = {} }, i) => {
    const { ok, output } = results[i]!;
    const vars = Object.entries(env).map(([name, value]) => `${name}=${value} `);
    console.log(`\n$ ${vars.join("")}${command} ${args.join(" ")}\n${output.trimEnd()}`);
    return ok;
  });
}

/** Runs commands side by side; one check each. */
async function checksAtOnce(checks: (Command & { name: string })[]): Promise<boolean[]> {
  const oks = await runAtOnce(checks);
  checks.forEach(({ name }, i) => tallies.push({ name, passed: oks[i] ? 1 : 0, failed: oks[i] ? 0 : 1 }));
  return oks;
}

// The static checks are single-threaded and independent, and the production build (before the
// integration tests: some start the production server from it, tests/helpers/web-server.ts) runs
// beside them: together they take about the longest one's time. The types are checked once, by
// tsc, without the build's generated `.next/types` (tsconfig.check.json: the build writes them
// meanwhile; a clean clone has none when tsc starts either), so the build skips its own check.
const [, , , , , built] = await checksAtOnce([
  { name: "lint", command: "npx", args: ["eslint", ".", "--max-warnings", "0"] },
  { name: "import cycles", command: "npm", args: ["run", "--silent", "cycles"] },
  { name: "format", command: "npx", args: ["prettier", "--check", "."] },
  { name: "typecheck", command: "npx", args: ["tsc", "--noEmit", "-p", "tsconfig.check.json"] },
  { name: "migration drift", command: process.execPath, args: ["--import", "tsx", "scripts/check-drift.ts"] },
  {
    name: "build",
    command: "npx",
    args: ["next", "build"],
    env: { TILLFLOW_SKIP_BUILD_TYPECHECK: "1", TILLFLOW_BUILD_CACHE: "off" },
  },
]);

// The chaos test across hosts (its own vitest project) starts six processes: among the other files
// it would starve their timed tests. It runs apart, at the end, beside the live smoke (below).
// The bad-input properties try 5,000 random requests here (all 10,000: `npx vitest run tests/api/bad-input.test.ts`).
const unitOk = run(
  "npx",
  [
    "vitest",
    "run",
    "--project=shared",
    "--project=isolated",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=test-results/unit.json",
  ],
  { BAD_INPUT_SCALE: "0.5" },
);
const unit = readJson<VitestReport>("test-results/unit.json");
const unitFailures = unit ? failedTests(unit) : [];
tallies.push({
  name: "unit + integration (vitest)",
  passed: unit?.numPassedTests ?? 0,
  // A suite that crashed before reporting still counts as a failure.
  failed: unit ? unit.numFailedTests + (unitOk || unit.numFailedTests > 0 ? 0 : 1) : 1,
});

if (built) {
  // The chaos test across hosts (its own cluster, in namespaces) mostly waits out its cuts: it runs
  // beside Playwright rather than add its 2.5 minutes to the end. Playwright's two workers keep both
  // cores busy (vmstat: 0–2 % idle, 2026-12-07), so a third worker would not make it quicker.
  const [e2eOk, hostsOk] = await runAtOnce([
    {
      command: "npx",
      args: ["playwright", "test", "--reporter=list,json"],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/e2e.json" },
    },
    { command: "npx", args: ["vitest", "run", "--project=hosts"] },
  ]);
  const e2e = readJson<{ stats: { expected: number; unexpected: number; flaky: number } }>(
    "test-results/e2e.json",
  );
  tallies.push(
    {
      name: "end-to-end (Playwright, Chromium)",
      passed: e2e ? e2e.stats.expected + e2e.stats.flaky : 0,
      failed: e2e ? e2e.stats.unexpected + (e2eOk || e2e.stats.unexpected > 0 ? 0 : 1) : 1,
    },
    { name: "chaos across hosts", passed: hostsOk ? 1 : 0, failed: hostsOk ? 0 : 1 },
  );
  // The production server and worker under a steady stream with a waiting flow: a collapse guard
  // at 19× its usual p99, run alone (beside Playwright its p99 was 534 ms of its 1,500).
  await checksAtOnce([
    { name: "live smoke", command: process.execPath, args: ["--import", "tsx", "scripts/live-smoke.ts"] },
  ]);
} else {
  tallies.push({ name: "end-to-end (Playwright, Chromium)", passed: 0, failed: 1 });
  tallies.push({ name: "live smoke", passed: 0, failed: 1 });
  tallies.push({ name: "chaos across hosts", passed: 0, failed: 1 });
}

console.log("\nSummary");
for (const t of tallies) {
  console.log(`  ${t.name.padEnd(36)} ${t.passed} passed, ${t.failed} failed`);
  if (t.name === "unit + integration (vitest)") for (const line of unitFailures) console.log(`    ✘ ${line}`);
}
const passed = tallies.reduce((n, t) => n + t.passed, 0);
const failed = tallies.reduce((n, t) => n + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
