import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DELETE, GET, POST } from "@/app/api/mcp/route";
import { getDb } from "@/lib/db/client";
import { auditEvents, automationRunWaits } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns, waitThenTag } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer } from "@/tests/helpers/receiver";

/*
 * The MCP server over real HTTP: the route handler behind a tiny node:http server on 127.0.0.1,
 * driven by the SDK's own Client and StreamableHTTPClientTransport.
 */

let shop: TestShop;
let other: TestShop;
let server: http.Server;
let url: URL;

const HANDLERS: Record<string, (req: Request) => Response | Promise<Response>> = { POST, GET, DELETE };

/** Adapts node's request and response to the route handler's web-standard Request and Response. */
function serve(): Promise<URL> {
  server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
          headers.append(name, v);
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const handler = HANDLERS[req.method ?? ""];
      const response = handler
        ? await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }))
        : new Response(null, { status: 405 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      console.error(error);
      res.writeHead(500).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`)),
    ),
  );
}

const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "tillflow-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

interface ToolReply<T> {
  isError?: boolean;
  text: string;
  data: T;
}

async function callTool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolReply<T>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  const text = content[0]?.text ?? "";
  return { isError: result.isError === true, text, data: result.structuredContent as T };
}

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  url = await serve();
});
afterAll(async () => {
  for (const client of clients) await client.close();
  // Keep-alive sockets (fetch's) would hold close() open until they time out.
  server.closeAllConnections();
  await closeServer(server);
});
workerForFile();

async function pendingWaits(automationId: string) {
  return getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.automationId, automationId), eq(automationRunWaits.status, "pending")));
}

describe("MCP at /api/mcp", () => {
  let automationId = "";

  test("lists its tools, each with the input schema its service parses with", async () => {
    const client = await connect(shop.keys.editor);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "automation_messages",
      "automation_performance",
      "cancel_wait",
      "decide_approval",
      "delete_team",
      "get_automation",
      "get_brake",
      "get_run",
      "list_automations",
      "list_runs",
      "list_teams",
      "list_waiting",
      "pause_all_automations",
      "resume_all_automations",
      "run_automation",
      "save_team",
      "send_down_branch",
      "update_automation",
    ]);
    const update = tools.find((t) => t.name === "update_automation")!;
    expect(Object.keys(update.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["id", "graph", "name", "inFlightPolicy", "action"]),
    );
  });

  test("reads an automation, saves its draft, publishes it with the impact sentence, lists and cancels a wait", async () => {
    const client = await connect(shop.keys.editor);
    automationId = await publishFlow(shop.keys.editor, "Follow up", waitThenTag("followed"));
    await upsertEntity(
      shop.tenant.id,
      "order",
      "m-1",
      { number: "1", status: "pending", total: 5, currency: "EUR" },
      "test",
    );
    await expect.poll(async () => (await pendingWaits(automationId)).length, { timeout: 15_000 }).toBe(1);

    const listed = await callTool<{ items: { id: string; name: string }[] }>(client, "list_automations", {
      q: "Follow",
    });
    expect(listed.data.items).toEqual([expect.objectContaining({ id: automationId, name: "Follow up" })]);

    const read = await callTool<{
      status: string;
      version: number;
      waitingRuns: number;
      readyIssues: unknown[];
    }>(client, "get_automation", { id: automationId });
    expect(read.isError).toBe(false);
    expect(read.data).toMatchObject({ status: "active", version: 1, waitingRuns: 1, readyIssues: [] });
    expect(JSON.parse(read.text)).toMatchObject({ status: "active", version: 1 });

    const saved = await callTool<{
      automation: { draftGraph: unknown; version: number };
      publishImpact: { message: string };
    }>(client, "update_automation", {
      id: automationId,
      graph: waitThenTag("followed-v2"),
      inFlightPolicy: "finish_on_started_version",
    });
    expect(saved.isError, saved.text).toBe(false);
    expect(saved.data.automation.version).toBe(1);
    expect(JSON.stringify(saved.data.automation.draftGraph)).toContain("followed-v2");
    expect(saved.data.publishImpact.message).toMatch(/^1 run is waiting at 'Wait 2 days'; /);

    const published = await callTool<{
      automation: { version: number };
      published: boolean;
      impact: { message: string };
    }>(client, "update_automation", { id: automationId, action: "publish", note: "over MCP" });
    expect(published.isError, published.text).toBe(false);
    expect(published.data).toMatchObject({ published: true, automation: { version: 2 } });
    expect(published.data.impact.message).toBe(saved.data.publishImpact.message);
    const [audit] = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, automationId), eq(auditEvents.action, "automation.published")))
      .orderBy(auditEvents.createdAt)
      .then((rows) => rows.slice(-1));
    expect(audit).toMatchObject({ detail: { version: 2, note: "over MCP" } });

    const waiting = await callTool<{ items: { id: string; kind: string }[] }>(client, "list_waiting", {
      automationId,
    });
    expect(waiting.data.items).toHaveLength(1);
    const waitId = waiting.data.items[0]!.id;
    const cancelled = await callTool<{ id: string; status: string }>(client, "cancel_wait", { waitId });
    expect(cancelled.isError, cancelled.text).toBe(false);
    expect(cancelled.data).toMatchObject({ id: waitId, status: "cancelled" });
    expect(await pendingWaits(automationId)).toEqual([]);

    const again = await callTool(client, "cancel_wait", { waitId });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/already cancelled/);
  });

  test("get_run says why each condition went its way: the value it read and the one it compared", async () => {
    const client = await connect(shop.keys.viewer);
    //  order_created ──▶ total > 100 ──true──▶ add_tag(big)
    const checkId = await publishFlow(
      shop.keys.editor,
      "Big orders",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "big" } },
        ],
        [
          ["t", "big"],
          ["big", "tag", "true"],
        ],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "m-why",
      { number: "2", status: "pending", total: 80, currency: "EUR" },
      "test",
    );
    const [run] = await settledRuns(checkId);
    const read = await callTool<{ steps: { nodeId: string; why?: { text: string; value: unknown } }[] }>(
      client,
      "get_run",
      { id: run!.id },
    );
    expect(read.isError, read.text).toBe(false);
    expect(read.data.steps.find((s) => s.nodeId === "big")?.why).toMatchObject({
      value: 80,
      text: "Total is 80, not more than 100",
    });
  });

  test("another shop's key finds nothing of this shop", async () => {
    const client = await connect(other.keys.admin);
    const read = await callTool(client, "get_automation", { id: automationId });
    expect(read).toMatchObject({ isError: true, text: "That automation was not found." });
    const update = await callTool(client, "update_automation", { id: automationId, name: "Mine" });
    expect(update).toMatchObject({ isError: true, text: "That automation was not found." });
    const waiting = await callTool(client, "list_waiting", { automationId });
    expect(waiting).toMatchObject({ isError: true, text: "That automation was not found." });
    const runs = await callTool<{ items: unknown[] }>(client, "list_runs", {});
    expect(runs.data.items).toEqual([]);
  });

  test("a viewer's key reads but cannot write", async () => {
    const client = await connect(shop.keys.viewer);
    const read = await callTool<{ id: string }>(client, "get_automation", { id: automationId });
    expect(read.isError).toBe(false);
    expect(read.data.id).toBe(automationId);
    const refused = "Viewers can read but not change anything. Ask an admin for the editor role.";
    const update = await callTool(client, "update_automation", { id: automationId, name: "Viewer's" });
    expect(update).toMatchObject({ isError: true, text: refused });
    const pause = await callTool(client, "update_automation", { id: automationId, action: "pause" });
    expect(pause).toMatchObject({ isError: true, text: refused });

    await upsertEntity(
      shop.tenant.id,
      "order",
      "m-2",
      { number: "2", status: "pending", total: 5, currency: "EUR" },
      "test",
    );
    await expect.poll(async () => (await pendingWaits(automationId)).length, { timeout: 15_000 }).toBe(1);
    const [wait] = await pendingWaits(automationId);
    const cancel = await callTool(client, "cancel_wait", { waitId: wait!.id });
    expect(cancel).toMatchObject({ isError: true, text: refused });
    expect(await pendingWaits(automationId)).toHaveLength(1);
    const read2 = await callTool<{ name: string; status: string }>(client, "get_automation", {
      id: automationId,
    });
    expect(read2.data).toMatchObject({ name: "Follow up", status: "active" });
  });

  test("the emergency brake: an editor is refused; an admin pulls it and releases it (issue 53)", async () => {
    const braked = await createShop();
    const id = await publishFlow(braked.keys.editor, "Braked", waitThenTag("braked"));
    const editor = await connect(braked.keys.editor);
    const refused = await callTool(editor, "pause_all_automations", {});
    expect(refused).toMatchObject({ isError: true, text: "Only an admin can do this." });

    const admin = await connect(braked.keys.admin);
    const before = await callTool<{ impact: { sentence: string } }>(admin, "get_brake", {});
    expect(before.data.impact.sentence).toBe(
      "1 active automation; 0 runs waiting will hold until you resume; no schedule is due to fire.",
    );
    const pulled = await callTool<{ brake: { on: boolean; automations: number } }>(
      admin,
      "pause_all_automations",
      {},
    );
    expect(pulled.data.brake).toMatchObject({ on: true, automations: 1 });
    const read = await callTool<{ status: string }>(admin, "get_automation", { id });
    expect(read.data.status).toBe("paused");
    // This file's shop is untouched.
    expect(
      (await callTool<{ brake: { on: boolean } }>(await connect(shop.keys.viewer), "get_brake", {})).data
        .brake.on,
    ).toBe(false);
    const released = await callTool<{ resumedAutomations: number }>(admin, "resume_all_automations", {});
    expect(released.data.resumedAutomations).toBe(1);
    expect((await callTool<{ status: string }>(admin, "get_automation", { id })).data.status).toBe("active");
  });

  test("run_automation starts a real run for a record, or a Later step now", async () => {
    const client = await connect(shop.keys.editor);
    //  order_created ──▶ add_tag(run-by-mcp)
    //  later(check-in) ──▶ create_task(Checked {event.payload.then.who})
    const id = await publishFlow(
      shop.keys.editor,
      "Tagger",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "run-by-mcp" } },
          { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
          {
            id: "task",
            type: "auto.action.create_task",
            params: { title: "Checked {event.payload.then.who}" },
          },
        ],
        [
          ["t", "tag"],
          ["back", "task"],
        ],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "m-3",
      { number: "3", status: "paid", total: 5, currency: "EUR" },
      "test",
    );
    await settledRuns(id, 1);

    const forRecord = await callTool<{ run: { id: string; entityId: string; event: { type: string } } }>(
      client,
      "run_automation",
      { automationId: id, entity: { domain: "order", id: "m-3" } },
    );
    expect(forRecord.isError, forRecord.text).toBe(false);
    expect(forRecord.data.run).toMatchObject({ entityId: "m-3", event: { type: "order.created" } });

    const later = await callTool<{ run: { id: string; event: { payload: { then: unknown } } } }>(
      client,
      "run_automation",
      { automationId: id, later: { step: "check-in", then: { who: "Ada" } } },
    );
    expect(later.isError, later.text).toBe(false);
    expect(later.data.run.event.payload.then).toEqual({ who: "Ada" });
    const runs = await settledRuns(id, 3);
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const run = await callTool<{ steps: { nodeId: string; input: { title?: string } }[] }>(
      client,
      "get_run",
      {
        id: later.data.run.id,
      },
    );
    expect(run.data.steps).toEqual([
      expect.objectContaining({ nodeId: "task", input: expect.objectContaining({ title: "Checked Ada" }) }),
    ]);

    const missing = await callTool(client, "run_automation", {
      automationId: id,
      entity: { domain: "order", id: "nope" },
    });
    expect(missing).toMatchObject({ isError: true, text: "The order 'nope' was not found." });
    const noStep = await callTool(client, "run_automation", { automationId: id, later: { step: "x" } });
    expect(noStep).toMatchObject({
      isError: true,
      text: "'Tagger' has no Later trigger for step 'x'; its later steps are 'check-in'.",
    });
  });

  test("teams: an admin adds and changes one; an editor reads but is refused a change", async () => {
    const admin = await connect(shop.keys.admin);
    const made = await callTool<{ id: string; name: string; members: unknown[] }>(admin, "save_team", {
      name: "Finance",
    });
    expect(made.isError, made.text).toBe(false);
    expect(made.data).toMatchObject({ name: "Finance", members: [] });
    const renamed = await callTool<{ name: string }>(admin, "save_team", { id: made.data.id, name: "Money" });
    expect(renamed.data.name).toBe("Money");
    const editor = await connect(shop.keys.editor);
    const listed = await callTool<{ items: { name: string }[] }>(editor, "list_teams", {});
    expect(listed.isError).toBe(false);
    expect(listed.text).toContain("Money");
    const refused = await callTool(editor, "delete_team", { id: made.data.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe("Only an admin can do this.");
    expect((await callTool(admin, "delete_team", { id: made.data.id })).isError).toBe(false);
  });

  test("without a key it answers 401; GET and DELETE say it is stateless", async () => {
    const none = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const bad = await fetch(url, {
      method: "POST",
      headers: { authorization: "Bearer tf_nope" },
      body: "{}",
    });
    expect(bad.status).toBe(401);
    const get = await fetch(url, { headers: { authorization: `Bearer ${shop.keys.viewer}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});
