import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Outside Next.js the marker is the empty module tsconfig.json names (lib/server-only.ts).
      "server-only": path.resolve(import.meta.dirname, "lib/server-only.ts"),
    },
  },
  test: {
    include: ["{lib,worker,tests,app,components,bin,scripts}/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-db.ts"],
    pool: "forks",
    // Four files at a time on two cores: the long ones mostly wait (on workers they start and
    // kill, timers, a launcher's shutdown), not compute. 610 s for the suite against 678 with
    // three (2026-12-06, 209 files); bad-input.test.ts's properties have 120 s each for it.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
