import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

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

const root = import.meta.dirname;
const ownProcess = ["lib", "worker", "tests", "app", "components", "bin", "scripts"]
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .map((file) => path.join(dir, file)),
  )
  .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes("node_modules"))
  .filter((file) => NEEDS_OWN_PROCESS.test(fs.readFileSync(path.join(root, file), "utf8")));

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
