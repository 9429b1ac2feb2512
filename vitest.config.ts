import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const INCLUDE = "{lib,worker,tests,app,components,bin,scripts}/**/*.test.{ts,tsx}";
const HOSTS_TEST = "tests/ops/hosts.test.ts";

/**
 * What only a process of its own undoes: a file that mocks modules, stubs globals or timers, or
 * writes the environment (a limit set low, a model's address). Such files run isolated, one process
 * each; the others share their worker processes and the modules already loaded there, which saves
 * each file a second or two of loading (11.0 → about 8 minutes for the suite on two cores).
 * tests/setup-shared.ts fails a shared file that changed the environment after all.
 */
const NEEDS_OWN_PROCESS =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers)\b|process\.env(\.\w+|\[[^\]]+\])\s*(=[^=]|\?\?=)|delete process\.env|\b(setEnv|resetConfig)\(|globalThis\.__\w+\s*=[^=]/;

/**
 * What makes a file long: it starts workers, web servers or other processes and waits on them
 * (crash tests kill and restart workers; a file of them takes 30–150 s against about 1 s for most).
 */
const STARTS_PROCESSES = /\b(spawnWorker|startWebServer|spawn|execFile|fork)\(/;

const root = import.meta.dirname;
const testFiles = ["lib", "worker", "tests", "app", "components", "bin", "scripts"]
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .map((file) => path.join(dir, file)),
  )
  .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes("node_modules"))
  .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }));
const ownProcess = testFiles.filter(({ text }) => NEEDS_OWN_PROCESS.test(text)).map(({ file }) => file);
const startsProcesses = new Set(
  testFiles.filter(({ text }) => STARTS_PROCESSES.test(text)).map(({ file }) => path.join(root, file)),
);

/**
 * Vitest's order (the last run's longest first, else the largest file first), except that on a run
 * with no record of the last (a fresh clone, CI) the files that start processes go first: they
 * are small files, so by size they would start last and hold the suite's end for minutes after
 * the others are done.
 */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = sorted.some((spec) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`),
    );
    if (known) return sorted;
    const long = (spec: TestSpecification) => (startsProcesses.has(spec.moduleId) ? 0 : 1);
    // Stable: within a project, by Vitest's order otherwise.
    const projectOrder = new Map<string, number>();
    for (const spec of sorted)
      if (!projectOrder.has(spec.project.name)) projectOrder.set(spec.project.name, projectOrder.size);
    return [...sorted].sort(
      (a, b) => projectOrder.get(a.project.name)! - projectOrder.get(b.project.name)! || long(a) - long(b),
    );
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(root),
      // Outside Next.js the marker is the empty module tsconfig.json names (lib/server-only.ts).
      "server-only": path.resolve(root, "lib/server-only.ts"),
    },
  },
  test: {
    globalSetup: ["tests/global-setup.ts"],
    pool: "forks",
    // Four files at a time on two cores: the long ones mostly wait (on workers they start and
    // kill, timers, a launcher's shutdown), not compute. 610 s for the suite against 678 with
    // three (2026-12-06, 209 files); bad-input.test.ts's properties have 120 s each for it.
    maxWorkers: 4,
    sequence: { sequencer: LongFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each project names its own files (an include or exclude given here would be added to theirs).
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          isolate: false,
          include: [INCLUDE],
          exclude: ["**/node_modules/**", HOSTS_TEST, ...ownProcess],
          setupFiles: ["tests/setup-db.ts", "tests/setup-shared.ts"],
        },
      },
      {
        extends: true,
        test: { name: "isolated", include: ownProcess, setupFiles: ["tests/setup-db.ts"] },
      },
      // Six processes in network namespaces: `npm test` runs it apart, after the others
      // (`--project hosts`), so that it does not starve their timed tests.
      {
        extends: true,
        test: { name: "hosts", include: [HOSTS_TEST], setupFiles: ["tests/setup-db.ts"] },
      },
    ],
  },
});
