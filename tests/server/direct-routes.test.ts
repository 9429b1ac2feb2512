import http from "node:http";
import zlib from "node:zlib";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { connectionDeliveries, events } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { directRoute, serveDirect } from "@/server/direct-routes";
import { prepareRequest } from "@/server/edge";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { connectStore, platformSignature } from "@/tests/helpers/stores";

// The web server's own answer to the hot routes (server/direct-routes.ts), over real HTTP: what an
// integration sees must be what Next.js would have answered with the same handler.

let shop: TestShop;
let server: http.Server;
let base: string;

beforeAll(async () => {
  shop = await createShop();
  await upsertEntity(
    shop.tenant.id,
    "order",
    "o-1",
    { number: "1", status: "paid", total: 5, currency: "EUR" },
    "test",
  );
  // As server/index.ts does: the edge first, then the direct route.
  server = http.createServer((req, res) => {
    prepareRequest(req, res);
    const route = directRoute(req);
    if (route) void serveDirect(route, req, res);
    else res.writeHead(418).end("not direct");
  });
  base = await listenLocally(server);
});

afterAll(() => closeServer(server));

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v1/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${shop.keys.editor}`, "content-type": "application/json", ...headers },
    body,
  });

const fulfilled = (id: string) => ({ id, type: "order.fulfilled", domain: "order", entityId: "o-1" });

test("an event is recorded once per id, with the API's replies", async () => {
  const first = await post(JSON.stringify(fulfilled("direct-1")));
  expect(first.status).toBe(201);
  expect(await first.json()).toMatchObject({ id: "direct-1", type: "order.fulfilled", duplicate: false });
  const again = await post(JSON.stringify(fulfilled("direct-1")));
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({ duplicate: true });
  const rows = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.tenantId, shop.tenant.id), eq(events.id, "direct-1")));
  expect(rows).toHaveLength(1);
});

test("no key is a 401, a viewer's a 403, bad JSON a 400, and nothing is recorded", async () => {
  const anonymous = await fetch(`${base}/api/v1/events`, {
    method: "POST",
    body: JSON.stringify(fulfilled("d-anon")),
  });
  expect(anonymous.status).toBe(401);
  expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  const viewer = await post(JSON.stringify(fulfilled("d-viewer")), {
    authorization: `Bearer ${shop.keys.viewer}`,
  });
  expect(viewer.status).toBe(403);
  const broken = await post("{not json");
  expect(broken.status).toBe(400);
  expect(((await broken.json()) as { error: { message: string } }).error.message).toBe(
    "The request body is not valid JSON.",
  );
  const rows = await getDb().select().from(events).where(eq(events.tenantId, shop.tenant.id));
  expect(rows.map((r) => r.id)).not.toEqual(expect.arrayContaining(["d-anon", "d-viewer"]));
});

test("a streamed body over the limit is a 413 without being read to its end, and the next request still works", async () => {
  // No Content-Length: the handler cannot refuse it up front, so the server must stop keeping it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (write: (req: http.ClientRequest) => void) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${base}/api/v1/events`,
        { method: "POST", agent, headers: { authorization: `Bearer ${shop.keys.editor}` } },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      write(req);
    });
  const chunk = Buffer.alloc(1_000_000, "a");
  const big = await request((req) => {
    for (let i = 0; i < 6; i++) req.write(chunk);
    req.end();
  });
  expect(big.status).toBe(413);
  expect(JSON.parse(big.body).error.message).toMatch(/larger than 5 MB/);
  const small = await request((req) => req.end(JSON.stringify(fulfilled("d-after-413"))));
  expect(small.status).toBe(201);
  agent.destroy();
});

test("a large reply is gzipped for a client that accepts it; a small one is not", async () => {
  const batch = Array.from({ length: 60 }, (_, i) => fulfilled(`d-batch-${i}`));
  const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
    const body = JSON.stringify(batch);
    const req = http.request(
      `${base}/api/v1/events`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${shop.keys.editor}`,
          "accept-encoding": "gzip",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
  expect(raw.encoding).toBe("gzip");
  const reply = JSON.parse(zlib.gunzipSync(raw.body).toString()) as {
    items: { id: string; duplicate: boolean }[];
  };
  expect(reply.items).toHaveLength(60);
  expect(reply.items[59]).toEqual({ id: "d-batch-59", duplicate: false });

  const single = await post(JSON.stringify(fulfilled("d-small")), { "accept-encoding": "gzip" });
  expect(single.headers.get("content-encoding")).toBeNull();
});

test("a store's signed delivery is answered directly; a forged one is a 401 and an unknown URL a 404", async () => {
  const store = await connectStore(shop.keys.editor, "shopify");
  const body = JSON.stringify({ id: 4242, name: "#4242", currency: "EUR", total_price: "9.00" });
  const deliver = (signature: string, path = `/api/connect/shopify/${store.token}`) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "X-Shopify-Topic": "orders/create",
        "X-Shopify-Hmac-Sha256": signature,
        "X-Shopify-Event-Id": "direct-evt-1",
      },
      body,
    });
  const signed = await deliver(platformSignature(store.secret, body));
  expect(signed.status).toBe(200);
  expect(await signed.json()).toMatchObject({ result: "received" });
  expect(signed.headers.get("content-security-policy")).toBeTruthy();
  expect((await deliver(platformSignature("wrong", body))).status).toBe(401);
  expect(
    (await deliver(platformSignature(store.secret, body), "/api/connect/shopify/not-a-real-token-000"))
      .status,
  ).toBe(404);
  expect(
    (await deliver(platformSignature(store.secret, body), "/api/connect/magento/" + store.token)).status,
  ).toBe(404);
  const rows = await getDb()
    .select()
    .from(connectionDeliveries)
    .where(eq(connectionDeliveries.connectionId, store.id));
  expect(rows.map((r) => r.deliveryId)).toEqual(["direct-evt-1"]);
});

test("only POST /api/v1/events and store deliveries are answered directly; anything else goes to Next.js", async () => {
  expect((await fetch(`${base}/api/connect/shopify/x`)).status).toBe(418);
  expect((await fetch(`${base}/api/connect/shopify/x/y`, { method: "POST", body: "{}" })).status).toBe(418);
  expect((await fetch(`${base}/api/v1/events`)).status).toBe(418);
  expect((await fetch(`${base}/api/v1/events/`, { method: "POST", body: "{}" })).status).toBe(418);
  expect((await fetch(`${base}/api/health`)).status).toBe(418);
  // A query string does not change the route.
  const withQuery = await fetch(`${base}/api/v1/events?source=test`, {
    method: "POST",
    headers: { authorization: `Bearer ${shop.keys.editor}` },
    body: JSON.stringify(fulfilled("d-query")),
  });
  expect(withQuery.status).toBe(201);
});
