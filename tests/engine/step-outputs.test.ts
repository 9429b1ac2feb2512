import http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { getDb } from "@/lib/db/client";
import { call } from "@/tests/helpers/fixtures";
import { automationRuns, automationRunSteps, entityNotes, type RunStatus } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { runInStatus } from "@/tests/helpers/poll";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

/*
 * SPEC §2 "What a step hands on", with the real worker and a receiver on 127.0.0.1: an HTTP
 * answer's parsed JSON drives a condition and fills a later step's token; an answer past 16 KB is
 * cut, says so, and a token into the cut part fails its step naming it.
 */

let shop: TestShop;
let server: http.Server;
let base: string;

/** 40 KB of JSON: an id, then items enough to pass the step limit. */
const HUGE = {
  id: "list-7",
  items: Array.from({ length: 400 }, (_, i) => ({ sku: `sku-${i}`, description: "x".repeat(80) })),
};

beforeAll(async () => {
  shop = await createShop();
  server = http.createServer((req, res) => {
    if (req.url === "/points") {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-loyalty-tier": "gold" });
      res.end(JSON.stringify({ points: 120, member: { since: "2024" } }));
    } else if (req.url === "/huge") {
      res.writeHead(200, { "content-type": "application/vnd.list+json" });
      res.end(JSON.stringify(HUGE));
    } else {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("plain words");
    }
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  await closeServer(server);
});
const worker = workerForFile();
void worker;

async function pay(id: string) {
  for (const status of ["pending", "paid"])
    await upsertEntity(
      shop.tenant.id,
      "order",
      id,
      { number: `#${id}`, status, total: 5, currency: "EUR" },
      "test",
    );
}

async function settledRunOf(automationId: string) {
  let runId = "";
  await expect
    .poll(async () => {
      const [run] = await getDb()
        .select({ id: automationRuns.id })
        .from(automationRuns)
        .where(eq(automationRuns.automationId, automationId));
      runId = run?.id ?? "";
      return runId;
    })
    .not.toBe("");
  const ended: RunStatus[] = ["succeeded", "partial", "failed"];
  return runInStatus(runId, ended, { timeoutMs: 20_000, intervalMs: 100 });
}

async function stepsOf(runId: string) {
  const rows = await getDb().select().from(automationRunSteps).where(eq(automationRunSteps.runId, runId));
  return new Map(rows.map((row) => [row.nodeId, row]));
}

async function notesOf(entityId: string) {
  const rows = await getDb().select().from(entityNotes).where(eq(entityNotes.tenantId, shop.tenant.id));
  return rows.filter((row) => row.entityId === entityId).map((row) => row.body);
}

describe("what a step hands on", () => {
  //  order_paid ──▶ h (GET /points) ──▶ rich? (steps.h.body.points > 100) ──true──▶ note("{steps.h.body.points} points")
  //                                                                       └─false─▶ note("few points")
  test("an HTTP answer's body.points drives a condition and fills a later step's token; status and headers are there", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Loyalty points",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "h", type: "auto.action.http_request", params: { url: `${base}/points`, method: "GET" } },
          {
            id: "rich",
            type: "auto.condition.field",
            params: { path: "steps.h.body.points", operator: "gt", value: 100 },
          },
          {
            id: "yes",
            type: "auto.action.add_note",
            params: { body: "{steps.h.body.points} points, tier {steps.h.headers.x-loyalty-tier}" },
          },
          { id: "no", type: "auto.action.add_note", params: { body: "few points" } },
        ],
        [
          ["t", "h"],
          ["h", "rich"],
          ["rich", "yes", "true"],
          ["rich", "no", "false"],
        ],
      ),
    );
    await pay("p-1");
    const run = await settledRunOf(id);
    expect(run.status).toBe("succeeded");
    const steps = await stepsOf(run.id);
    expect(steps.get("h")!.output).toMatchObject({
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8", "x-loyalty-tier": "gold" },
      body: { points: 120, member: { since: "2024" } },
    });
    expect(steps.get("h")!.output).not.toHaveProperty("bodyExcerpt");
    expect(steps.get("rich")!.output).toEqual({ result: true });
    expect(steps.has("no")).toBe(false);
    expect(await notesOf("p-1")).toEqual(["120 points, tier gold"]);
  });

  //  order_paid ──▶ h (GET /huge) ──▶ id note("{steps.h.body.id}")
  //                               └──▶ items note("{steps.h.body.items}")
  test("an answer past 16 KB is cut and says so; a token into the kept part works, one into the cut part fails its step naming it", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Huge answer",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "h", type: "auto.action.http_request", params: { url: `${base}/huge`, method: "GET" } },
          { id: "kept", type: "auto.action.add_note", params: { body: "List {steps.h.body.id}" } },
          { id: "lost", type: "auto.action.add_note", params: { body: "Items {steps.h.body.items}" } },
        ],
        [
          ["t", "h"],
          ["h", "kept"],
          ["h", "lost"],
        ],
      ),
    );
    await pay("h-1");
    const run = await settledRunOf(id);
    expect(run.status).toBe("partial");
    const steps = await stepsOf(run.id);
    const output = steps.get("h")!.output as Record<string, unknown>;
    expect(steps.get("h")!.status).toBe("success");
    expect(Buffer.byteLength(JSON.stringify(output))).toBeLessThanOrEqual(16_000);
    expect(output).toMatchObject({
      status: 200,
      headers: { "content-type": "application/vnd.list+json" },
      durationMs: expect.any(Number),
      idempotencyKey: `${run.id}:h:1`,
      body: { id: "list-7" },
      truncated: {
        paths: expect.arrayContaining(["body.items.*"]),
        note: "The answer was larger than 16 KB; only part of it was kept.",
      },
    });
    // As much structure as fits: the first items are kept whole.
    const items = (output.body as { items: unknown[] }).items;
    expect(items.length).toBeGreaterThan(10);
    expect(items[0]).toEqual(HUGE.items[0]);
    expect(steps.get("kept")!.status).toBe("success");
    expect(steps.get("lost")).toMatchObject({
      status: "failed",
      error: "{steps.h.body.items} was cut: the answer of 'Send HTTP request' was larger than 16 KB.",
    });
    // (The earlier test's automation notes this order too: only this flow's notes are looked at.)
    const written = await notesOf("h-1");
    expect(written).toContain("List list-7");
    expect(written.filter((body) => body.startsWith("Items"))).toEqual([]);
  });

  test("an answer that is not JSON keeps an excerpt, as before", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Plain answer",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "h", type: "auto.action.http_request", params: { url: `${base}/plain`, method: "GET" } },
        ],
        [["t", "h"]],
      ),
    );
    await pay("x-1");
    const run = await settledRunOf(id);
    expect(run.status).toBe("succeeded");
    const output = (await stepsOf(run.id)).get("h")!.output;
    expect(output).toMatchObject({
      status: 200,
      bodyExcerpt: "plain words",
      headers: { "content-type": "text/plain" },
    });
    expect(output).not.toHaveProperty("body");
  });

  test("a dry run walks past the HTTP step to the condition on its answer, and says the answer only exists in a real run", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Loyalty points, tried",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "h", type: "auto.action.http_request", params: { url: `${base}/points`, method: "GET" } },
          {
            id: "rich",
            type: "auto.condition.field",
            params: { path: "steps.h.body.points", operator: "gt", value: 100 },
          },
          { id: "no", type: "auto.action.add_note", params: { body: "few points" } },
        ],
        [
          ["t", "h"],
          ["h", "rich"],
          ["rich", "no", "false"],
        ],
      ),
    );
    await pay("d-1");
    const res = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: { entityId: "d-1" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.steps.map((step) => [step.nodeId, step.outcome])).toEqual([
      ["t", expect.any(String)],
      ["h", "would_run"],
      ["rich", "false"],
      ["no", "would_run"],
    ]);
    expect(res.body.notes).toContain(
      "Outputs of earlier actions ({steps.…}) only exist in a real run, so they come out empty here.",
    );
  });
});
