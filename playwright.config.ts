import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./tests/helpers/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3100);
/** Workers side by side, each with a demo shop of its own (e2e/helpers.ts); more only with more shops. */
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/**
 * End-to-end tests drive Debian's Chromium against the production build, started by the same
 * launcher as `npm start` (web server + worker) on its own embedded database under `.data/e2e`,
 * reset and re-seeded for every run.
 */
export default defineConfig({
  testDir: "e2e",
  // A spec file's tests run in order on one worker; files are shared out between the workers.
  fullyParallel: false,
  workers: WORKERS,
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
      // The full browser when someone watches (`--headed`, `--debug`, `--ui`); else the headless shell.
      executablePath: chromiumPath(
        Boolean(process.env.PWDEBUG) || process.argv.some((a) => ["--headed", "--debug", "--ui"].includes(a)),
      ),
      args: CHROMIUM_ARGS,
    },
    // A trace records every step with screenshots: about a third of the suite's CPU when kept for
    // every test. CI retries a failed test once, with its trace (`npx playwright test --trace=on` locally).
    trace: "on-first-retry",
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
      TILLFLOW_DATA_DIR: ".data/e2e",
      TILLFLOW_RESET: "1",
      TILLFLOW_SCHEDULES: "off",
      // Links the app writes (invitations, password resets, unsubscribes) on the origin the specs
      // browse and send as Origin (baseURL, extraHTTPHeaders): Chromium 156 fails every subresource
      // of a localhost page whose forced Origin header names 127.0.0.1 (net::ERR_INVALID_ARGUMENT).
      BETTER_AUTH_URL: `http://127.0.0.1:${PORT}`,
      TILLFLOW_DEMO_SHOPS: String(WORKERS),
      LOG_LEVEL: "warn", // a line per API request would bury the specs' own output in CI's log
      SIGN_IN_ATTEMPTS_PER_MINUTE: "10000", // every spec signs in from 127.0.0.1 (lib/rate-limit/sign-in.ts)
      // The AI builder's model: e2e/ai-builder.spec.ts starts a stub there (read at request time).
      AI_BASE_URL: "http://127.0.0.1:3291/v1",
      AI_MODEL: "stub",
      // Shopify's and WooCommerce's APIs: e2e/store-write.spec.ts starts a stand-in there.
      STORE_API_BASE_URL: "http://127.0.0.1:3292",
    },
  },
});
