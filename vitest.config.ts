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
    // Three files at a time on two cores: the long ones mostly wait (on workers they start and
    // kill, timers, a launcher's shutdown), not compute. 2.8 min for the suite against 4.8 with two;
    // with four, the property tests of bad-input.test.ts came near their 30 s limit.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
