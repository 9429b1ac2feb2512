import { afterAll, beforeAll, expect, test } from "vitest";
import { contentSecurityPolicy } from "@/lib/http/security-headers";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

// Every reply carries a CSP, frame-ancestors 'none', Referrer-Policy and nosniff; HSTS over https
// only; and no X-Powered-By (SPEC §2 "Trust at the edges"). On the production server: a page, a
// route Next.js answers and one the server answers itself (server/direct-routes.ts).

let shop: TestShop;
let plain: WebServer;
let proxied: WebServer;

beforeAll(async () => {
  shop = await createShop();
  [plain, proxied] = await Promise.all([startWebServer(), startWebServer({ TRUSTED_PROXIES: "127.0.0.1" })]);
}, 120_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), proxied?.stop()]);
});

function expectSecurityHeaders(res: Response, what: string) {
  const csp = res.headers.get("content-security-policy") ?? "";
  for (const directive of [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
  ])
    expect(csp, what).toContain(directive);
  // A production build needs no eval.
  expect(csp, what).not.toContain("unsafe-eval");
  expect(res.headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("x-powered-by"), what).toBeNull();
}

const replies = (server: WebServer, headers: Record<string, string> = {}) => [
  { what: "the sign-in page", res: fetch(`${server.baseUrl}/sign-in`, { headers }) },
  {
    what: "GET /api/v1/automations (Next.js)",
    res: fetch(`${server.baseUrl}/api/v1/automations`, {
      headers: { authorization: `Bearer ${shop.keys.viewer}`, ...headers },
    }),
  },
  {
    what: "POST /api/v1/events (the server's direct route)",
    res: fetch(`${server.baseUrl}/api/v1/events`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${shop.keys.editor}`,
        "content-type": "application/json",
        ...headers,
      },
      body: "{not json",
    }),
  },
  { what: "a 404", res: fetch(`${server.baseUrl}/no-such-page`, { headers }) },
];

test("a page and API replies carry the security headers, without X-Powered-By or HSTS over http", async () => {
  const expected = [200, 200, 400, 404];
  const list = replies(plain);
  for (const [i, { what, res }] of list.entries()) {
    const reply = await res;
    expect(reply.status, what).toBe(expected[i]);
    expectSecurityHeaders(reply, what);
    expect(reply.headers.get("strict-transport-security"), what).toBeNull();
  }
});

test("HSTS only when a trusted proxy says the request came over https", async () => {
  for (const { what, res } of replies(proxied, { "x-forwarded-proto": "https" })) {
    const reply = await res;
    expectSecurityHeaders(reply, what);
    expect(reply.headers.get("strict-transport-security"), what).toBe("max-age=31536000; includeSubDomains");
  }
  // Anyone can write the header: without a trusted proxy it means nothing.
  for (const { what, res } of replies(plain, { "x-forwarded-proto": "https" }))
    expect((await res).headers.get("strict-transport-security"), what).toBeNull();
});

test("the CSP allows eval only under next dev, which needs it", () => {
  expect(contentSecurityPolicy(true)).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
  expect(contentSecurityPolicy(false)).not.toContain("unsafe-eval");
});
