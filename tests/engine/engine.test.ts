import http from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { GET as getAutomationRoute } from "@/app/api/v1/automations/[id]/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { executeRun } from "@/lib/automations/engine/pipeline";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, automationRuns, outboxEmails, staffTasks } from "@/lib/db/schema";
import { getEntity, upsertEntity } from "@/lib/entities/service";
import { ingestEvent } from "@/lib/automations/engine/start/api";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

let shop: TestShop;
let server: http.Server;
let serverUrl: string;
const received: { key: string | undefined; body: string }[] = [];

beforeAll(async () => {
  shop = await createShop();
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ key: req.headers["idempotency-key"] as string | undefined, body });
      res.statusCode = req.url === "/fail" ? 500 : 200;
      res.end(JSON.stringify({ ok: req.url !== "/fail" }));
    });
  });
  serverUrl = await listenLocally(server);
});

afterAll(async () => {
  await closeServer(server);
});
const worker = workerForFile();

const order = (over: Record<string, unknown> = {}) => ({
  number: "#1001",
  status: "pending",
  total: 150,
  currency: "EUR",
  email: "ann@example.com",
  ...over,
});

async function placeOrder(id: string, over: Record<string, unknown> = {}) {
  await upsertEntity(shop.tenant.id, "order", id, order(over), "test");
}

describe("an order event runs a published flow end to end", () => {
  //  order_created ──▶ total > 100 ──true──▶ add_tag(big-{entity.currency}) ──▶ add_note ──▶ send_email ──▶ create_task
  //                               └─false─▶ add_tag(small)
  test("the tag, note, email and task exist, and the run succeeded with a step per node", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Big orders",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "big-{entity.currency}" } },
          { id: "small", type: "auto.action.add_tag", params: { tag: "small" } },
          { id: "note", type: "auto.action.add_note", params: { body: "Order {entity.number} is big" } },
          {
            id: "mail",
            type: "auto.action.send_email",
            params: {
              purpose: "transactional",
              to: "{entity.email}",
              subject: "Thanks for {entity.number}",
              body: "You bought <b>{entity.lineItems.0.title}</b>",
            },
          },
          {
            id: "task",
            type: "auto.action.create_task",
            params: { title: "Check {entity.number}", dueIn: "2h" },
          },
        ],
        [
          ["t", "big"],
          ["big", "tag", "true"],
          ["big", "small", "false"],
          ["tag", "note"],
          ["note", "mail"],
          ["mail", "task"],
        ],
      ),
    );
    await placeOrder("o-big", {
      lineItems: [{ sku: "MUG", title: "Mug <Limited>", quantity: 1, price: 150 }],
    });
    const [run] = await settledRuns(id);
    expect(run).toMatchObject({ status: "succeeded" });

    const entity = await getEntity(shop.tenant.id, "order", "o-big");
    expect(entity.tags).toEqual(["big-EUR"]);
    expect(entity.notes.map((n) => [n.body, n.author])).toEqual([
      ["Order #1001 is big", "Automation “Big orders”"],
    ]);
    const emails = await getDb().select().from(outboxEmails).where(eq(outboxEmails.runId, run!.id));
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: "ann@example.com", subject: "Thanks for #1001", status: "stored" });
    // The template's own HTML stays; the values filled in are escaped.
    expect(emails[0]!.bodyHtml).toBe("You bought <b>Mug &lt;Limited&gt;</b>");
    const tasks = await getDb().select().from(staffTasks).where(eq(staffTasks.runId, run!.id));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      title: "Check #1001",
      domain: "order",
      entityId: "o-big",
      status: "open",
    });

    const detail = await call<{
      status: string;
      steps: { nodeId: string; status: string; leg: number; output: unknown }[];
    }>(getRunRoute, { key: shop.keys.viewer, params: { id: run!.id } });
    expect(detail.body.steps.map((s) => [s.nodeId, s.status, s.leg])).toEqual([
      ["big", "success", 1],
      ["tag", "success", 1],
      ["note", "success", 1],
      ["mail", "success", 1],
      ["task", "success", 1],
    ]);
    expect(detail.body.steps[0]!.output).toEqual({ result: true });
  });
});

describe("exactly once", () => {
  //  order_paid ──▶ add_tag(paid) ──▶ http_request(POST local server)
  test("the same event twice makes one run; a redelivered job delivers nothing twice", async () => {
    received.length = 0;
    const id = await publishFlow(
      shop.keys.editor,
      "Paid hook",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "paid" } },
          {
            id: "call",
            type: "auto.action.http_request",
            params: { url: `${serverUrl}/paid`, body: '{"order":"{entity.id}"}' },
          },
        ],
        [
          ["t", "tag"],
          ["tag", "call"],
        ],
      ),
    );
    await placeOrder("o-paid");
    const event = { id: "pay-1", type: "order.paid", domain: "order", entityId: "o-paid" };
    await ingestEvent(shop.tenant.id, event);
    await ingestEvent(shop.tenant.id, event);
    const runs = await settledRuns(id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe("succeeded");

    // Simulate a redelivery: the job runs again for the same run (as after a crash before completion).
    await getDb().update(automationRuns).set({ status: "running" }).where(eq(automationRuns.id, runs[0]!.id));
    await executeRun(runs[0]!.id);

    const deliveries = await getDb()
      .select()
      .from(actionDeliveries)
      .where(eq(actionDeliveries.runId, runs[0]!.id));
    expect(deliveries.map((d) => [d.nodeId, d.status]).sort()).toEqual([
      ["call", "delivered"],
      ["tag", "delivered"],
    ]);
    expect(received).toEqual([{ key: `${runs[0]!.id}:call:1`, body: '{"order":"o-paid"}' }]);
    const tags = (await getEntity(shop.tenant.id, "order", "o-paid")).tags;
    expect(tags.filter((t) => t === "paid")).toEqual(["paid"]);
    const [again] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, runs[0]!.id));
    expect(again!.status).toBe("succeeded");
  });

  test("an HTTP delivery left 'sending' by a crash is re-sent with the same key, and the run says so", async () => {
    received.length = 0;
    const id = await publishFlow(
      shop.keys.editor,
      "Fulfilled hook",
      flow(
        [
          { id: "t", type: "auto.trigger.order_fulfilled" },
          { id: "call", type: "auto.action.http_request", params: { url: `${serverUrl}/fulfilled` } },
        ],
        [["t", "call"]],
      ),
    );
    await placeOrder("o-ful");
    await placeOrder("o-ful", { status: "fulfilled" });
    const [run] = await settledRuns(id);
    // Rewind to the moment between "sending" and the response: the worker died mid-request.
    await getDb()
      .update(actionDeliveries)
      .set({ status: "sending", response: null })
      .where(and(eq(actionDeliveries.runId, run!.id), eq(actionDeliveries.nodeId, "call")));
    await getDb().update(automationRuns).set({ status: "running" }).where(eq(automationRuns.id, run!.id));
    await executeRun(run!.id);

    expect(received.map((r) => r.key)).toEqual([`${run!.id}:call:1`, `${run!.id}:call:1`]);
    const detail = await call<{
      steps: { nodeId: string; reason: string | null; output: Record<string, unknown> }[];
    }>(getRunRoute, { key: shop.keys.viewer, params: { id: run!.id } });
    expect(detail.body.steps[0]).toMatchObject({
      nodeId: "call",
      reason: "Re-sent after an interruption, with the same Idempotency-Key.",
      output: expect.objectContaining({ resentAfterInterruption: true, status: 200 }),
    });
  });
});

describe("failures", () => {
  //  order_cancelled ──▶ add_tag(cancelled) ──▶ http_request(/fail → 500)
  test("with retries off, a failing action fails its step with a readable error and makes the run partial", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Cancelled",
      flow(
        [
          { id: "t", type: "auto.trigger.order_cancelled" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "cancelled" } },
          {
            id: "call",
            type: "auto.action.http_request",
            params: { url: `${serverUrl}/fail`, retry: { attempts: 1, backoff: "fixed", initialSeconds: 1 } },
          },
        ],
        [
          ["t", "tag"],
          ["tag", "call"],
        ],
      ),
    );
    await placeOrder("o-can");
    await placeOrder("o-can", { status: "cancelled" });
    const [run] = await settledRuns(id);
    expect(run).toMatchObject({ status: "partial", error: "1 of 2 actions failed." });
    const detail = await call<{ steps: { nodeId: string; status: string; error: string | null }[] }>(
      getRunRoute,
      {
        key: shop.keys.viewer,
        params: { id: run!.id },
      },
    );
    expect(detail.body.steps.find((s) => s.nodeId === "call")).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/answered 500/),
    });
  });

  test("a run whose entity was deleted before it ran fails with the domain's not-found message", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Refunds",
      flow(
        [
          { id: "t", type: "auto.trigger.refund_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "refund" } },
        ],
        [["t", "tag"]],
      ),
    );
    await worker.stop();
    await upsertEntity(shop.tenant.id, "refund", "r-1", { orderId: "o-1", amount: 5 }, "test");
    const { deleteEntity } = await import("@/lib/entities/service");
    await deleteEntity(shop.tenant.id, "refund", "r-1", "test");
    await worker.start();
    const [run] = await settledRuns(id);
    expect(run).toMatchObject({ status: "failed", error: "The refund 'r-1' no longer exists." });
  });
});

describe("the API is a wall", () => {
  test("a viewer cannot create or publish; another shop sees 404; big or malformed graphs are refused and store nothing", async () => {
    const other = await createShop();
    const created = await call<{ id: string }>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Walls", graph: flow([{ id: "t", type: "auto.trigger.order_created" }], []) },
    });
    expect(created.status).toBe(201);

    const viewerCreate = await call<ErrorReply>(createRoute, {
      method: "POST",
      key: shop.keys.viewer,
      body: { name: "x" },
    });
    expect(viewerCreate.status).toBe(403);
    const viewerPublish = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: shop.keys.viewer,
      params: { id: created.body.id },
    });
    expect(viewerPublish.status).toBe(403);
    const foreign = await call<ErrorReply>(getAutomationRoute, {
      key: other.keys.admin,
      params: { id: created.body.id },
    });
    expect(foreign.status).toBe(404);
    const foreignPublish = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: other.keys.admin,
      params: { id: created.body.id },
    });
    expect(foreignPublish.status).toBe(404);
    const badId = await call<ErrorReply>(getAutomationRoute, {
      key: shop.keys.admin,
      params: { id: "not-a-uuid" },
    });
    expect(badId.status).toBe(404);

    const before = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from automations`);
    const huge = {
      nodes: Array.from({ length: 150 }, (_, i) => ({
        id: `n${i}`,
        type: "auto.action.add_note",
        params: { body: "x".repeat(1400) },
      })),
      edges: [],
    };
    const tooBig = await call<ErrorReply>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Huge", graph: huge },
    });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.message).toMatch(/at most 100 KB/);
    const malformed = await call<ErrorReply>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Bad", graph: { nodes: [{ id: "a b", type: 3 }], edges: "none" } },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.message).toMatch(/The flow is malformed/);
    const after = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from automations`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  test("publishing a graph with ready issues is a 422 listing them", async () => {
    const created = await call<{ id: string; readyIssues: unknown[] }>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: {
        name: "Broken",
        graph: flow([{ id: "c", type: "auto.condition.has_tag", params: { tag: "vip" } }], []),
      },
    });
    expect(created.body.readyIssues.length).toBeGreaterThan(0);
    const res = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.issues?.length).toBeGreaterThan(0);
  });

  test("runs list pages with a keyset cursor and filters by status", async () => {
    const page = await call<{ items: { id: string; status: string }[]; nextCursor: string | null }>(
      listRunsRoute,
      {
        key: shop.keys.viewer,
        path: "/api/v1/runs?limit=2",
      },
    );
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.nextCursor).not.toBeNull();
    const next = await call<{ items: { id: string }[] }>(listRunsRoute, {
      key: shop.keys.viewer,
      path: `/api/v1/runs?limit=2&cursor=${page.body.nextCursor}`,
    });
    expect(next.body.items.map((r) => r.id)).not.toContain(page.body.items[0]!.id);
    const partial = await call<{ items: { status: string }[] }>(listRunsRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/runs?status=partial",
    });
    expect(partial.body.items.length).toBeGreaterThan(0);
    expect(partial.body.items.every((r) => r.status === "partial")).toBe(true);
    const bad = await call<ErrorReply>(listRunsRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/runs?status=exploded",
    });
    expect(bad.status).toBe(422);
  });
});
