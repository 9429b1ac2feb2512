import fs from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * `E2E_PART=1` or `2`: half of the spec files, in name order, on a shop of its own — `npm test`
 * runs the two halves side by side (scripts/test.ts). Part 2 starts at this file; the specs that
 * need a fresh shop (blank-shop, automations) are in part 1, and part 2's specs set up what they
 * read, so each half passes alone.
 */
const PART_TWO_FROM = "outcomes.spec.ts";
const PART = process.env.E2E_PART;
const PORT = Number(process.env.E2E_PORT ?? (PART === "2" ? 3101 : 3100));
const specs = fs
  .readdirSync("e2e")
  .filter((name) => name.endsWith(".spec.ts"))
  .sort();
const inPart = specs.filter((name) =>
  PART === "1" ? name < PART_TWO_FROM : PART === "2" ? name >= PART_TWO_FROM : true,
);

/**
 * End-to-end tests drive Debian's Chromium against the production build, started by the same
 * launcher as `npm start` (web server + worker) on its own embedded database under `.data/e2e`,
 * reset and re-seeded for every run.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: inPart.map((name) => `**/${name}`),
  outputDir: PART ? `test-results/e2e-part-${PART}` : "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // The specs' own API calls (`page.request`) ride on the signed-in session, and a write by a
    // session needs a same-origin Origin (lib/api/same-origin.ts): a browser's fetch sends it,
    // Playwright's request context does not.
    extraHTTPHeaders: { origin: `http://127.0.0.1:${PORT}` },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: "node --import tsx scripts/start.ts",
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    // No schedules' heartbeat (lib/jobs.ts crontabFor): the demo's built-ins would start runs mid-test.
    env: {
      PORT: String(PORT),
      TILLFLOW_DATA_DIR: PART ? `.data/e2e-part-${PART}` : ".data/e2e",
      TILLFLOW_RESET: "1",
      TILLFLOW_SCHEDULES: "off",
      LOG_LEVEL: "warn", // a line per API request would bury the specs' own output in CI's log
      SIGN_IN_ATTEMPTS_PER_MINUTE: "10000", // every spec signs in from 127.0.0.1 (lib/auth/rate-limit.ts)
      // The AI builder's model: e2e/ai-builder.spec.ts starts a stub there (read at request time).
      AI_BASE_URL: "http://127.0.0.1:3291/v1",
      AI_MODEL: "stub",
    },
  },
});
