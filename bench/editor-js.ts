/**
 * `npm run bench -- editor-js`: the flow editor's first-load JavaScript. Starts the production
 * server (built if stale) with the worker on its own embedded database, signs in with Debian's
 * Chromium, opens an automation in the editor and sums the gzip size of every script the page
 * loaded. Target (issue 13): at most 250 KB gzip. `BENCH_DETAIL=1` lists every script.
 */
import { spawn } from "node:child_process";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../tests/helpers/chromium";
import { report, waitUntil } from "./harness";

const PORT = Number(process.env.BENCH_PORT ?? 3150);
const BASE = `http://127.0.0.1:${PORT}`;
const LIMIT_KB = 250;

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`${BASE}/api/health`)).ok;
  } catch {
    return false;
  }
}

export async function benchEditorJs(): Promise<void> {
  const server = spawn("node", ["--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, PORT: String(PORT), TILLFLOW_DATA_DIR: ".data/bench-editor", TILLFLOW_RESET: "1" },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath(true),
    args: CHROMIUM_ARGS,
  });
  try {
    await waitUntil(healthy, 600_000, 500);
    const page = await browser.newPage();
    await page.goto(`${BASE}/sign-in`);
    await page.getByLabel("Email", { exact: true }).fill("admin@demo.test");
    await page.getByLabel("Password", { exact: true }).fill("tillflow-demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/dashboard");
    // A signed-in session's write must name the app's own origin (lib/api/same-origin.ts).
    const created = await page.request.post(`${BASE}/api/v1/automations`, {
      headers: { origin: BASE },
      data: {
        name: "Bench: review request",
        graph: {
          nodes: [
            { id: "t", type: "auto.trigger.order_fulfilled", params: {}, position: { x: 0, y: 0 } },
            {
              id: "w",
              type: "auto.control.wait",
              params: { duration: 2, unit: "days" },
              position: { x: 0, y: 180 },
            },
            {
              id: "e",
              type: "auto.action.send_email",
              params: {
                to: "{entity.email}",
                subject: "How was it?",
                body: "Tell us about order {entity.number}.",
              },
              position: { x: 0, y: 360 },
            },
          ],
          edges: [
            { id: "e1", source: "t", target: "w" },
            { id: "e2", source: "w", target: "e" },
          ],
        },
      },
    });
    const { id } = (await created.json()) as { id: string };

    // A fresh page, so nothing is cached: every script the editor needs on first load.
    const fresh = await browser.newContext({ storageState: await page.context().storageState() });
    const editor = await fresh.newPage();
    const scripts = new Map<string, { raw: number; gzip: number }>();
    editor.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      const body = await response.body().catch(() => null);
      if (body) scripts.set(response.url(), { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    });
    await editor.goto(`${BASE}/automations/${id}`, { waitUntil: "load" });
    await editor.locator(".react-flow__node").first().waitFor();
    // Chunks loaded right after hydration (lazy panels, prefetches) count too.
    await editor.waitForTimeout(3000);

    if (process.env.BENCH_DETAIL) {
      for (const [url, size] of [...scripts].sort((a, b) => b[1].gzip - a[1].gzip))
        console.log(`  ${(size.gzip / 1024).toFixed(1).padStart(6)} KB gzip  ${new URL(url).pathname}`);
    }
    const gzipKb = [...scripts.values()].reduce((sum, s) => sum + s.gzip, 0) / 1024;
    const rawKb = [...scripts.values()].reduce((sum, s) => sum + s.raw, 0) / 1024;
    report("editor-js", {
      scripts: scripts.size,
      first_load_js_gzip_kb: Math.round(gzipKb * 10) / 10,
      first_load_js_raw_kb: Math.round(rawKb * 10) / 10,
      limit_gzip_kb: LIMIT_KB,
      within_limit: gzipKb <= LIMIT_KB,
    });
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid, "SIGINT");
    await new Promise((resolve) => server.once("exit", resolve));
  }
}
