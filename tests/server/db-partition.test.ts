import { afterAll, beforeAll, expect, test } from "vitest";
import { Link } from "@/bench/chaos/link";
import { config } from "@/lib/config/config";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { until } from "@/tests/helpers/poll";

/**
 * The production web server reaches Postgres through a link the test can cut (bench/chaos/link.ts):
 * a cut swallows traffic and refuses nothing, as a partition does. While it is cut, API requests
 * and the health check answer 503 with a sentence within seconds instead of hanging; once it is
 * restored the server recovers by itself. `npm run chaos -- --hosts` does the same across real
 * network namespaces.
 */

let link: Link;
let web: WebServer;
let shop: TestShop;

beforeAll(async () => {
  const db = new URL(config().DATABASE_URL!);
  link = new Link({ host: db.hostname, port: Number(db.port) });
  const port = await link.listen();
  const viaLink = new URL(db);
  viaLink.host = `127.0.0.1:${port}`;
  web = await startWebServer({ DATABASE_URL: viaLink.toString() });
  shop = await createShop();
  await getDb()
    .insert(entities)
    .values(
      ["before", "during"].map((id) => ({
        tenantId: shop.tenant.id,
        domain: "order",
        id,
        data: {},
        updatedAt: new Date(),
      })),
    );
}, 90_000);

afterAll(async () => {
  link?.restore();
  await web?.stop();
  await link?.close();
});

async function get(path: string) {
  const started = Date.now();
  const res = await fetch(`${web.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${shop.keys.editor}` },
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    ms: Date.now() - started,
  };
}

const event = (id: string) => ({
  method: "POST",
  headers: { authorization: `Bearer ${shop.keys.editor}`, "content-type": "application/json" },
  body: JSON.stringify({ id, type: "order.created", domain: "order", entityId: id }),
  signal: AbortSignal.timeout(30_000),
});

test("cut off from Postgres, the web server answers 503 with a sentence at once, and recovers by itself when the link comes back", async () => {
  expect((await get("/api/v1/automations")).status).toBe(200);
  expect((await fetch(`${web.baseUrl}/api/v1/events`, event("before"))).status).toBe(201);

  link.cut();
  const cutAt = Date.now();
  // A request already on its way when the link went silent: answered 503 once the watch sees it.
  const caught = await get("/api/v1/automations");
  expect(caught.status).toBe(503);
  expect(caught.body).toEqual({
    error: {
      code: "unavailable",
      message: "Tillflow can't reach its database right now. Try again in a few seconds.",
    },
  });
  // Collapse guard (10× the 2 s probe timeout plus a second of probing): not a hang.
  expect(Date.now() - cutAt).toBeLessThan(30_000);
  // From then on, at once, without touching the pool: reads, ingest and the health check.
  const next = await get("/api/v1/automations");
  expect(next.status).toBe(503);
  expect(next.ms).toBeLessThan(1_000);
  const ingest = await fetch(`${web.baseUrl}/api/v1/events`, event("during"));
  expect(ingest.status).toBe(503);
  const health = await fetch(`${web.baseUrl}/api/health?scope=web`);
  expect(health.status).toBe(503);
  expect(await health.json()).toMatchObject({ db: false });

  link.restore();
  await until(
    () => get("/api/v1/automations"),
    (r) => r.status === 200,
    {
      timeoutMs: 20_000,
      intervalMs: 250,
      what: "the web server to answer again once the link is back",
    },
  );
  expect((await fetch(`${web.baseUrl}/api/health?scope=web`)).status).toBe(200);
  // The refused event was not half-written: sent again, it is new, not a duplicate.
  const again = await fetch(`${web.baseUrl}/api/v1/events`, event("during"));
  expect(again.status).toBe(201);
  expect(await again.json()).not.toMatchObject({ duplicate: true });
  expect(web.output()).toContain("The database cannot be reached");
  expect(web.output()).toContain("The database is reachable again");
}, 90_000);
