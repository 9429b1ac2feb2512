import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { PUT as putEntity } from "@/app/api/v1/entities/[domain]/[id]/route";
import { POST as postEvents } from "@/app/api/v1/events/route";
import { GET as listAutomations } from "@/app/api/v1/automations/route";
import { Counter } from "@/lib/rate-limit";
import { getDb } from "@/lib/db/client";
import { rateLimitWindows } from "@/lib/db/schema";
import { type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

// Small limits for this file only (each test file runs in its own process).
process.env.API_RATE_LIMIT_PER_MINUTE = "3";
process.env.API_INGEST_RATE_LIMIT_PER_MINUTE = "2";

let shop: TestShop;

beforeAll(async () => {
  shop = await createShop();
});

// The limits count per calendar minute: a test that straddles a minute's end would see two
// windows, so it starts early in a minute.
async function earlyInAMinute() {
  const second = new Date().getUTCSeconds();
  if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

type Handler = (req: Request, context: { params: Promise<never> }) => Promise<Response>;

async function send(handler: Handler, method: string, key: string, body?: unknown, params = {}) {
  const req = new Request("http://test.local/", {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return handler(req, { params: Promise.resolve(params) as Promise<never> });
}

const order = (i: number) => ({ number: `#${i}`, status: "pending", total: 5, currency: "EUR" });

describe("per API key rate limit", () => {
  test("writes over the limit get 429 with Retry-After and a plain message; reads and other keys go on", async () => {
    await earlyInAMinute();
    for (let i = 0; i < 3; i++) {
      const res = await send(putEntity, "PUT", shop.keys.editor, order(i), { domain: "order", id: `o-${i}` });
      expect(res.status, await res.text()).toBeLessThan(300);
    }
    const refused = await send(putEntity, "PUT", shop.keys.editor, order(9), { domain: "order", id: "o-9" });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as ErrorReply;
    expect(body.error).toEqual({
      code: "rate_limited",
      message: `This API key has sent more than 3 write requests this minute. Try again in ${retryAfter} s.`,
    });
    // Reads are not limited, and another key has its own count.
    expect((await send(listAutomations, "GET", shop.keys.editor)).status).toBe(200);
    const other = await send(putEntity, "PUT", shop.keys.admin, order(10), { domain: "order", id: "o-10" });
    expect(other.status).toBe(201);
  });

  test("event ingest has its own limit; an array counts once", async () => {
    await earlyInAMinute();
    const event = (id: string) => ({ id, type: "webhook.received", domain: "webhook" });
    expect(
      (await send(postEvents, "POST", shop.keys.admin, [event("a-1"), event("a-2"), event("a-3")])).status,
    ).toBe(201);
    expect((await send(postEvents, "POST", shop.keys.admin, event("a-4"))).status).toBe(201);
    const refused = await send(postEvents, "POST", shop.keys.admin, event("a-5"));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as ErrorReply).error.message).toMatch(
      /^This API key has sent more than 2 event requests this minute\. Try again in \d+ s\.$/,
    );
  });
});

describe("body size", () => {
  test("a body over 1 MB is refused with 413 (an array of events may be up to 5 MB)", async () => {
    const key = (await createShop()).keys.editor;
    const big = await send(
      putEntity,
      "PUT",
      key,
      { ...order(1), padding: "x".repeat(1_100_000) },
      {
        domain: "order",
        id: "big",
      },
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as ErrorReply).error).toEqual({
      code: "too_large",
      message: "The request body is larger than 1 MB.",
    });
    const huge = await send(postEvents, "POST", key, [
      { type: "webhook.received", domain: "webhook", payload: { padding: "x".repeat(5_100_000) } },
    ]);
    expect(huge.status).toBe(413);
  });

  test("1,000 realistic events fit in one array", () => {
    // An order's fields and three line items per event: about 0.45 MB for 1,000.
    const events = Array.from({ length: 1000 }, (_, i) => ({
      id: `evt-2026-12-01-${String(i).padStart(6, "0")}`,
      type: "order.paid",
      domain: "order",
      entityId: `ord_${100000 + i}`,
      payload: {
        number: `#${100000 + i}`,
        total: 129.5,
        currency: "EUR",
        email: `customer${i}@example.com`,
        lineItems: [
          { sku: "TSHIRT-BLK-M", title: "T-shirt black M", quantity: 2, price: 25 },
          { sku: "MUG-WHT", title: "White mug", quantity: 1, price: 12.5 },
          { sku: "STICKER-PACK", title: "Sticker pack", quantity: 3, price: 4.99 },
        ],
      },
    }));
    expect(Buffer.byteLength(JSON.stringify(events))).toBeLessThan(1_000_000);
  });
});

describe("the batched counter", () => {
  const rule = { max: 100, windowSeconds: 60 };
  const at = Date.UTC(2026, 0, 1, 12, 0, 10); // 50 s before its window ends
  const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

  test("one process is exact: far from the limit it flushes in the background, near it every request counts", async () => {
    const counter = new Counter();
    const key = `test:${crypto.randomUUID()}`;
    const allowed: boolean[] = [];
    for (let i = 0; i < 101; i++) {
      allowed.push((await counter.take(key, rule, at)).allowed);
      await tick();
    }
    expect(allowed.filter(Boolean)).toHaveLength(100);
    expect(allowed[100]).toBe(false);
    const [row] = await getDb().select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key));
    expect(row!.hits).toBe(101);
    const refused = await counter.take(key, rule, at);
    expect(refused).toEqual({ allowed: false, hits: 102, retryAfterSeconds: 50 });
  });

  test("two processes share the count: the second sees the first's requests after its first flush", async () => {
    const key = `test:${crypto.randomUUID()}`;
    const first = new Counter();
    for (let i = 0; i < 100; i++) await first.take(key, rule, at);
    const second = new Counter();
    // Its first request is admitted on its own empty count, and sends it to the shared row …
    expect((await second.take(key, rule, at)).allowed).toBe(true);
    await tick();
    // … which tells it the key is over the limit.
    expect((await second.take(key, rule, at)).allowed).toBe(false);
  });

  test("a new window starts from zero", async () => {
    const counter = new Counter();
    const key = `test:${crypto.randomUUID()}`;
    for (let i = 0; i < 101; i++) await counter.take(key, rule, at);
    expect((await counter.take(key, rule, at + 60_000)).allowed).toBe(true);
  });
});
