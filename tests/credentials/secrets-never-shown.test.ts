import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DELETE, GET, POST } from "@/app/api/mcp/route";
import { CONTRACT } from "@/lib/api/contract";
import { pathParams } from "@/lib/api/openapi";
import { ROLES, type Role } from "@/lib/identity/roles";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import type { WorkerHandle } from "@/worker/run";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { routeHandlers, type Handler } from "@/tests/helpers/route-handlers";
import { deliver } from "@/tests/helpers/stores";
import { startTestWorker } from "@/tests/helpers/worker";

/*
 * SPEC §2 "Credentials": no reply shows a credential's value, to any role. A shop holds secrets
 * of every way they arrive (stored through the API, typed into a webhook trigger, typed into an
 * HTTP step's headers, a Slack webhook's URL) and has used them in real runs; then every GET route
 * of the contract and every MCP tool is called as every role, and each reply is searched for each
 * value.
 */

const SECRETS = {
  stored: "sk_live_stored_through_api_S7",
  webhook: "whsec_typed_into_trigger_W8",
  header: "typed_into_headers_H9",
  /** The secret path of a Slack incoming webhook's URL (the whole URL is the credential's value). */
  slack: "slack_webhook_path_K4",
  /** A connected store's webhook secret (kept as a credential of the connection). */
  store: "shpss_store_connection_Q5",
};

let shop: TestShop;
let worker: WorkerHandle;
let receiver: http.Server;
let mcp: http.Server;
let base: string;
const ids: Record<string, string> = {};

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

/** The MCP route behind node:http, as tests/mcp/mcp.test.ts serves it. */
function mcpServer(): http.Server {
  const handlers: Record<string, (req: Request) => Response | Promise<Response>> = { POST, GET, DELETE };
  return http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
          headers.append(name, v);
      const handler = handlers[req.method ?? ""];
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = handler
        ? await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }))
        : new Response(null, { status: 405 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
}

/**
 * A webhook trigger's token is its address: whoever has it can post and start runs. Editors and
 * admins see it (they set up the caller); viewers see that the webhook exists, not its address.
 */
const HOOK_TOKEN = "tok_never_shown_123456";

function leaks(text: string, role?: Role): string[] {
  const found = Object.entries(SECRETS)
    .filter(([, value]) => text.includes(value))
    .map(([name]) => name);
  if (role === "viewer" && text.includes(HOOK_TOKEN)) found.push("webhook token");
  return found;
}

beforeAll(async () => {
  shop = await createShop();
  receiver = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end("{}"),
  );
  base = `http://127.0.0.1:${await listen(receiver)}`;
  mcp = mcpServer();
  ids.mcpPort = String(await listen(mcp));
  worker = await startTestWorker();

  const { POST: createCredential } = await import("@/app/api/v1/credentials/route");
  const stored = await call<{ id: string }>(createCredential, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Stored", kind: "bearer", value: SECRETS.stored, allowedHosts: ["127.0.0.1"] },
  });
  ids.credential = stored.body.id;
  const slack = await call<{ id: string }>(createCredential, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Ops channel", kind: "slack_webhook", value: `${base}/services/T0/B0/${SECRETS.slack}` },
  });
  expect(slack.status, JSON.stringify(slack.body)).toBe(201);
  const { POST: connect } = await import("@/app/api/v1/connections/route");
  const connected = await call<{ id: string; url: string }>(connect, {
    method: "POST",
    key: shop.keys.editor,
    body: { platform: "shopify", name: "secret-store.myshopify.com", secret: SECRETS.store },
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  ids.connection = connected.body.id;
  ids.connectionToken = connected.body.url.split("/").at(-1)!;
  ids.automation = await publishFlow(
    shop.keys.editor,
    "Uses every secret",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "a",
          type: "auto.action.http_request",
          params: { url: `${base}/a`, auth: { credentialId: stored.body.id } },
        },
        {
          id: "b",
          type: "auto.action.http_request",
          params: { url: `${base}/b`, headers: { "X-Api-Key": SECRETS.header } },
        },
        {
          id: "c",
          type: "auto.action.slack",
          params: { credentialId: slack.body.id, text: "Order {entity.number} paid" },
        },
      ],
      [
        ["t", "a"],
        ["a", "b"],
        ["b", "c"],
      ],
    ),
  );
  ids.hook = await publishFlow(
    shop.keys.editor,
    "Signed hook",
    flow(
      [
        {
          id: "in",
          type: "auto.trigger.webhook",
          params: { token: HOOK_TOKEN, secret: SECRETS.webhook },
        },
        { id: "task", type: "auto.action.create_task", params: { title: "Hooked" } },
      ],
      [["in", "task"]],
    ),
  );
}, 60_000);

afterAll(async () => {
  await worker.stop();
  mcp.closeAllConnections();
  await Promise.all([receiver, mcp].map((s) => new Promise((resolve) => s.close(resolve))));
});

test("the secrets were really used", async () => {
  const order = { number: "#1", status: "pending", total: 5, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", "o-1", order, "test");
  await upsertEntity(shop.tenant.id, "order", "o-1", { ...order, status: "paid" }, "test");
  const [run] = await settledRuns(ids.automation!, 1);
  expect(run!.status).toBe("succeeded");
  ids.run = run!.id;
  const [row] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from action_deliveries where tenant_id = ${shop.tenant.id} and status = 'delivered'`,
  );
  expect(row!.n).toBe(3);
  // The store's secret checked a real delivery.
  const store = { id: ids.connection!, url: "", token: ids.connectionToken!, secret: SECRETS.store };
  const delivered = await deliver("shopify", store, {
    topic: "orders/create",
    body: { id: 77, name: "#77", currency: "EUR", total_price: "5.00" },
    deliveryId: "evt-77",
  });
  expect(delivered.status).toBe(200);
});

test("no GET route of the API shows a credential's value to any role, nor a webhook's address to a viewer", async () => {
  const handlers = await routeHandlers();
  const gets = CONTRACT.filter((e) => e.method === "GET");
  expect(gets.length).toBeGreaterThan(10);
  const found: string[] = [];
  let answered = 0;
  const cases = gets.flatMap((e) =>
    // Each automation route is asked about the flow with the webhook trigger too.
    e.path.startsWith("/api/v1/automations/{id}")
      ? [ids.automation!, ids.hook!].map((automation) => ({ e, automation }))
      : [{ e, automation: ids.automation! }],
  );
  for (const { e, automation } of cases) {
    const params: Record<string, string> = {};
    for (const name of pathParams(e.path)) params[name] = crypto.randomUUID();
    if (e.path.startsWith("/api/v1/automations/{id}")) params.id = automation;
    if (e.path.startsWith("/api/v1/runs/{id}")) params.id = ids.run!;
    if (e.path.startsWith("/api/v1/credentials/{id}")) params.id = ids.credential!;
    if (e.path.startsWith("/api/v1/connections/{id}")) params.id = ids.connection!;
    if (e.path.startsWith("/api/v1/entities/")) Object.assign(params, { domain: "order", id: "o-1" });
    if (params.version) params.version = "1";
    const queries = e.path === "/api/v1/outbox" ? ["", "?kind=http", "?kind=email"] : [""];
    for (const role of ROLES)
      for (const query of queries) {
        const reply = await call<unknown>(handlers.get(`GET ${e.path}`) as Handler, {
          path: `${e.path}${query}`,
          key: shop.keys[role],
          params,
        });
        if (reply.status === 200) answered++;
        for (const name of leaks(JSON.stringify(reply.body), role))
          found.push(`${e.path}${query} as ${role}: ${name}`);
      }
  }
  expect(found).toEqual([]);
  // Most of them really answered (the audit log is admins' only).
  expect(answered).toBeGreaterThan(gets.length * 2);
  // An editor still sees the webhook's address, to set up whatever calls it.
  const { GET: getAutomation } = await import("@/app/api/v1/automations/[id]/route");
  for (const role of ["editor", "admin"] as const) {
    const reply = await call<unknown>(getAutomation, { key: shop.keys[role], params: { id: ids.hook! } });
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body)).toContain(HOOK_TOKEN);
  }
  const viewer = await call<{ draftGraph: { nodes: { type: string; params: Record<string, unknown> }[] } }>(
    getAutomation,
    { key: shop.keys.viewer, params: { id: ids.hook! } },
  );
  // The viewer sees the trigger is there, without its token.
  const trigger = viewer.body.draftGraph.nodes.find((n) => n.type === "auto.trigger.webhook");
  expect(trigger).toBeDefined();
  expect(trigger?.params).not.toHaveProperty("token");
});

test("no MCP tool shows a credential's value to any role, nor a webhook's address to a viewer", async () => {
  const url = new URL(`http://127.0.0.1:${ids.mcpPort}/api/mcp`);
  const found: string[] = [];
  let called = 0;
  for (const role of ROLES) {
    const client = new Client({ name: "secrets-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${shop.keys[role]}` } },
      }),
    );
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
      const args: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(properties)) {
        if (/^(id|automationId)$/.test(name)) args[name] = ids.automation;
        else if (name === "runId") args[name] = ids.run;
        else if (name === "domain") args[name] = "order";
        else if (name === "entityId") args[name] = "o-1";
        else if ((tool.inputSchema.required ?? []).includes(name))
          args[name] =
            schema.type === "number" || schema.type === "integer"
              ? 1
              : schema.type === "boolean"
                ? false
                : "x";
      }
      const result = await client.callTool({ name: tool.name, arguments: args });
      called++;
      for (const leak of leaks(JSON.stringify(result), role)) found.push(`${tool.name} as ${role}: ${leak}`);
    }
    // The flow with the webhook trigger: its address only for editors and admins.
    const hook = JSON.stringify(
      await client.callTool({ name: "get_automation", arguments: { id: ids.hook } }),
    );
    expect(hook).toContain("Signed hook");
    for (const leak of leaks(hook, role)) found.push(`get_automation (webhook) as ${role}: ${leak}`);
    if (role !== "viewer") expect(hook).toContain(HOOK_TOKEN);
    await client.close();
  }
  expect(found).toEqual([]);
  expect(called).toBeGreaterThan(ROLES.length * 5);
});
