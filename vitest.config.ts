import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,worker,tests,app,components,bin,scripts}/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-db.ts"],
    pool: "forks",
    // Four files at a time on two cores: the long ones mostly wait (on workers they start and kill,
    // timers, a launcher's shutdown), not compute. 3.4 min for the suite against 4.8 with two.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
