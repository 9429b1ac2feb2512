import { afterAll, beforeAll, expect, test } from "vitest";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { until } from "@/tests/helpers/poll";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

// The production web server (server/index.ts) from the build in .next, logging JSON.
let shop: TestShop;
let web: WebServer;

beforeAll(async () => {
  shop = await createShop();
  web = await startWebServer({ LOG_FORMAT: "json" });
});

afterAll(async () => {
  await web?.stop();
});

/** The server's JSON log lines so far. */
const lines = () =>
  web
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test("an API reply carries X-Request-Id, and the server's line for the request the same id", async () => {
  const reply = await fetch(`${web.baseUrl}/api/v1/automations`, {
    headers: { authorization: `Bearer ${shop.keys.viewer}` },
  });
  expect(reply.status).toBe(200);
  const id = reply.headers.get("x-request-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const [line] = await until(
    async () => lines().filter((l) => l.requestId === id),
    (found) => found.length > 0,
    { timeoutMs: 10_000, what: `the log line of request ${id}:\n${web.output()}` },
  );
  expect(line).toMatchObject({ level: "info", method: "GET", path: "/api/v1/automations", status: 200 });
  // The key is never in the log.
  expect(web.output()).not.toContain(shop.keys.viewer);
});

test("a sane incoming X-Request-Id is kept; an odd one is replaced", async () => {
  const kept = await fetch(`${web.baseUrl}/api/v1/automations`, {
    headers: { authorization: `Bearer ${shop.keys.viewer}`, "x-request-id": "lb-7f3a.trace:42" },
  });
  expect(kept.headers.get("x-request-id")).toBe("lb-7f3a.trace:42");
  await until(
    async () => lines().filter((l) => l.requestId === "lb-7f3a.trace:42"),
    (found) => found.length > 0,
    { timeoutMs: 10_000, what: "the log line of request lb-7f3a.trace:42" },
  );
  const replaced = await fetch(`${web.baseUrl}/api/v1/automations`, {
    headers: { authorization: `Bearer ${shop.keys.viewer}`, "x-request-id": "x".repeat(200) },
  });
  expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  // A refused request has one too.
  const refused = await fetch(`${web.baseUrl}/api/v1/automations`);
  expect(refused.status).toBe(401);
  expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
});
