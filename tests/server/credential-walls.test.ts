import http from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { closeServer } from "@/tests/helpers/receiver";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

/*
 * Credentials' walls (issue 47) through the production server, with a pooled HTTP client (fetch):
 * an editor can neither manage a credential nor publish or dry-run a step that would send it to a
 * host outside its list, and the editor's own server hears nothing. The same walls, with runs,
 * Run now and redirects, are in tests/credentials/allowed-hosts.test.ts.
 */

const SECRET = "sk_live_only_for_localhost_7Hq2";
let web: WebServer;
let shop: TestShop;
let home: http.Server;
let homeBase: string;
const heard: string[] = [];
let credentialId: string;

beforeAll(async () => {
  shop = await createShop();
  home = http.createServer((req, res) => {
    heard.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    res.writeHead(200).end("{}");
  });
  homeBase = await new Promise<string>((resolve) =>
    home.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(home.address() as { port: number }).port}`),
    ),
  );
  web = await startWebServer();
}, 120_000);

afterAll(async () => {
  await web?.stop();
  if (home) await closeServer(home);
});

async function api(role: "admin" | "editor", method: string, path: string, body?: unknown) {
  const res = await fetch(`${web.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${shop.keys[role]}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const calling = (url: string) => ({
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {} },
    { id: "call", type: "auto.action.http_request", params: { url, auth: { credentialId } } },
  ],
  edges: [{ id: "e1", source: "t", target: "call" }],
});

test("only an admin makes, rotates, re-hosts or deletes a credential; an editor's try changes nothing", async () => {
  const made = await api("admin", "POST", "/credentials", {
    name: "Warehouse API",
    kind: "bearer",
    value: SECRET,
    allowedHosts: ["localhost"],
  });
  expect(made.status, made.text).toBe(201);
  credentialId = String(made.json.id);
  const tries = [
    await api("editor", "POST", "/credentials", {
      name: "Mine",
      kind: "bearer",
      value: "x",
      allowedHosts: ["127.0.0.1"],
    }),
    await api("editor", "PUT", `/credentials/${credentialId}`, { value: "rotated-by-editor" }),
    await api("editor", "PATCH", `/credentials/${credentialId}`, {
      allowedHosts: ["localhost", "127.0.0.1"],
    }),
    await api("editor", "DELETE", `/credentials/${credentialId}`),
  ];
  expect(tries.map((t) => t.status)).toEqual([403, 403, 403, 403]);
  const kept = await api("admin", "GET", `/credentials/${credentialId}`);
  expect(kept.json).toMatchObject({ name: "Warehouse API", allowedHosts: ["localhost"] });
  expect(kept.text).not.toContain(SECRET);
}, 30_000);

test("an editor can neither publish nor dry-run a step that sends it to their own server", async () => {
  const created = await api("editor", "POST", "/automations", {
    name: "Send it home",
    graph: calling(`${homeBase}/steal`),
  });
  expect(created.status, created.text).toBe(201);
  const id = String(created.json.id);
  const published = await api("editor", "POST", `/automations/${id}/publish`, {});
  expect(published.status, published.text).toBe(422);
  expect(published.text).toContain(
    "This step would send the credential 'Warehouse API' to 127.0.0.1, but it may only be sent to localhost",
  );
  const dry = await api("editor", "POST", `/automations/${id}/dry-run`, {});
  expect(dry.status, dry.text).toBe(200);
  const steps = dry.json.steps as { nodeId: string; outcome: string; error?: string }[];
  expect(steps.find((s) => s.nodeId === "call")).toMatchObject({
    outcome: "error",
    error:
      "Refused to send the credential 'Warehouse API' to 127.0.0.1: it may only be sent to localhost; an admin can add hosts in Settings → Credentials.",
  });
  expect(heard).toEqual([]);
}, 30_000);
