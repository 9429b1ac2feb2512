import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { addMember } from "@/lib/auth/users";
import { closeDb } from "@/lib/db/client";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import {
  dataRoot,
  databaseUrl,
  restartEmbeddedImmediately,
  startOrFindEmbedded,
  type EmbeddedCluster,
} from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/migrate";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { signInOverHttp, signInWithTheForm } from "@/tests/helpers/sign-in";
import { CHROMIUM_ARGS, chromiumPath } from "@/tests/helpers/chromium";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

// Issue 45: a Postgres restart cuts every connection of the web server, which then replaces its
// pool. Sign-in (better-auth) used to keep the ended pool and fail with a 500 until the server was
// restarted. The test cluster is shared by every test file, so this one restarts a cluster of its own.

const PASSWORD = "right-password-1";
const EMAIL = "restart@shop.test";
const dataDir = path.join(dataRoot(), `test-pg-restart-${process.pid}`);
let cluster: EmbeddedCluster | null = null;
let server: WebServer;
let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  if (!inject("embedded")) return;
  cluster = await startOrFindEmbedded(dataDir, { disposable: true });
  await createDatabaseIfMissing(cluster.serverUrl, "tillflow");
  const url = databaseUrl(cluster.serverUrl, "tillflow");
  await migrateDatabase(url);
  // This file's own rows go to the restarted cluster.
  await closeDb();
  process.env.DATABASE_URL = url;
  shop = await createShop();
  await addMember(shop.tenant.id, { email: EMAIL, role: "admin", password: PASSWORD });
  server = await startWebServer({ DATABASE_URL: url, SIGN_IN_ATTEMPTS_PER_MINUTE: "1000" });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await closeDb();
  await cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(`${dataDir}.json`, { force: true });
});

/** Waits until the web server says its database answers (its watch notices the restart). */
async function healthy(): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${server.baseUrl}/api/health?scope=web`).catch(() => null);
    if (res?.ok && ((await res.json()) as { db?: boolean }).db === true) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The web server did not see its database again within 20 s:\n${server.output()}`);
}

test.skipIf(!inject("embedded"))(
  "after Postgres restarts, sign-in works on the first try: HTTP, the form in a browser, and API keys",
  async () => {
    expect((await signInOverHttp(server, EMAIL, PASSWORD)).status).toBe(200);
    for (let round = 1; round <= 2; round++) {
      await restartEmbeddedImmediately(dataDir);
      await healthy();
      const reply = await signInOverHttp(server, EMAIL, PASSWORD);
      expect(reply.status, `round ${round}:\n${server.output().slice(-3000)}`).toBe(200);
      await signInWithTheForm(browser, server, EMAIL, PASSWORD);
      const api = await fetch(`${server.baseUrl}/api/v1/automations`, {
        headers: { authorization: `Bearer ${shop.keys.admin}` },
      });
      expect(api.status).toBe(200);
    }
    expect(server.output()).toContain("the pool was replaced with a fresh one");
  },
  120_000,
);
