import http from "node:http";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as rerunRoute } from "@/app/api/v1/runs/[id]/rerun/route";
import { POST as bulkRerunRoute } from "@/app/api/v1/runs/rerun/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps, type RunStatus } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

let shop: TestShop;
/** The receiver refuses every request (400) until it is fixed. */
let broken = true;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(broken ? 400 : 200, { "content-type": "application/json" });
    res.end(broken ? '{"error":"unknown customer"}' : '{"ok":true}');
  });
  url = `${await listenLocally(server)}/crm`;
});

beforeEach(async () => {
  shop = await createShop();
  broken = true;
});

afterAll(async () => {
  await closeServer(server);
});
workerForFile();

//  order_paid ──▶ add_tag(synced?) ──▶ http_request(CRM) ──▶ add_note(Synced {entity.total})
const syncFlow = () =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "syncing" } },
      { id: "crm", type: "auto.action.http_request", params: { url, body: '{"order":"{entity.id}"}' } },
      { id: "note", type: "auto.action.add_note", params: { body: "Synced at total {entity.total}" } },
    ],
    [
      ["t", "tag"],
      ["tag", "crm"],
      ["crm", "note"],
    ],
  );

async function paidOrder(id: string, total = 40) {
  const order = { number: `#${id}`, status: "pending", total, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", id, order, "test");
  await upsertEntity(shop.tenant.id, "order", id, { ...order, status: "paid" }, "test");
}

async function runsOf(automationId: string) {
  return getDb()
    .select()
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId))
    .orderBy(asc(automationRuns.createdAt));
}

async function stepsOf(runId: string) {
  const steps = await getDb()
    .select()
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(asc(automationRunSteps.leg), asc(automationRunSteps.position));
  return steps.map((s) => [s.nodeId, s.status]);
}

interface RerunReply {
  run: { id: string; rerunOf: string | null; status: RunStatus };
  impact: string;
}

test("a run re-run from the step that failed starts there, on the record as it is now, and succeeds once the cause is fixed", async () => {
  const automationId = await publishFlow(shop.keys.editor, "Sync to CRM", syncFlow());
  await paidOrder("r-1");
  const [failed] = await settledRuns(automationId);
  expect(failed!.status).toBe("partial");
  expect(await stepsOf(failed!.id)).toEqual([
    ["tag", "success"],
    ["crm", "failed"],
  ]);

  // The cause is fixed, and the order changed meanwhile.
  broken = false;
  await upsertEntity(
    shop.tenant.id,
    "order",
    "r-1",
    { number: "#r-1", status: "paid", total: 55, currency: "EUR" },
    "test",
  );
  const reply = await call<RerunReply>(rerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: failed!.id },
    body: { from: "failed_step" },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  expect(reply.body.run.rerunOf).toBe(failed!.id);
  expect(reply.body.impact).toBe(
    `Starts a new run of 'Sync to CRM' for Order #r-1 · €55.00 from 'POST ${url}', the step that failed; the steps before it are not taken again, on version 1, with the record as it is now. The old run stays as it is.`,
  );

  const runs = await settledRuns(automationId, 2);
  const rerun = runs.find((r) => r.id === reply.body.run.id)!;
  expect(rerun.status).toBe("succeeded");
  expect(await stepsOf(rerun.id)).toEqual([
    ["crm", "success"],
    ["note", "success"],
  ]);
  const shown = await call<{ rerunOf: string; steps: { nodeId: string; input: { body?: string } }[] }>(
    runRoute,
    { key: shop.keys.viewer, params: { id: rerun.id } },
  );
  expect(shown.body.rerunOf).toBe(failed!.id);
  expect(shown.body.steps.find((s) => s.nodeId === "note")!.input).toMatchObject({
    body: "Synced at total 55",
  });
  const old = await call<{ reruns: { id: string }[] }>(runRoute, {
    key: shop.keys.viewer,
    params: { id: failed!.id },
  });
  expect(old.body.reruns.map((r) => r.id)).toEqual([rerun.id]);
});

test("a re-run from the start takes every step again", async () => {
  const automationId = await publishFlow(shop.keys.editor, "Sync to CRM", syncFlow());
  await paidOrder("r-2");
  const [failed] = await settledRuns(automationId);
  broken = false;
  const reply = await call<RerunReply>(rerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: failed!.id },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const rerun = (await settledRuns(automationId, 2)).find((r) => r.id === reply.body.run.id)!;
  expect(rerun.status).toBe("succeeded");
  expect(await stepsOf(rerun.id)).toEqual([
    ["tag", "success"],
    ["crm", "success"],
    ["note", "success"],
  ]);
});

test("a run that did not fail, or whose automation is off, is not re-run, and says why", async () => {
  broken = false;
  const automationId = await publishFlow(shop.keys.editor, "Sync to CRM", syncFlow());
  await paidOrder("r-3");
  const [ok] = await settledRuns(automationId);
  expect(ok!.status).toBe("succeeded");
  const refused = await call<ErrorReply>(rerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: ok!.id },
  });
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toBe(
    "Only a failed, partial or cancelled run can be re-run; this one is succeeded.",
  );

  broken = true;
  await paidOrder("r-4");
  const failed = (await settledRuns(automationId, 2)).find((r) => r.status === "partial")!;
  expect(
    (
      await call<ErrorReply>(rerunRoute, {
        method: "POST",
        key: shop.keys.editor,
        params: { id: failed.id },
        body: { from: "sideways" },
      })
    ).status,
  ).toBe(422);
  await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: automationId } });
  const paused = await call<ErrorReply>(rerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: failed.id },
  });
  expect(paused.status).toBe(409);
  expect(paused.body.error.message).toBe("'Sync to CRM' is paused; turn it on first to re-run its runs.");
  expect((await runsOf(automationId)).length).toBe(2);
});

test("the failed runs of an automation are re-run together, and what cannot be is counted", async () => {
  const automationId = await publishFlow(shop.keys.editor, "Sync to CRM", syncFlow());
  for (const id of ["b-1", "b-2", "b-3"]) await paidOrder(id);
  const failed = await settledRuns(automationId, 3);
  expect(failed.map((r) => r.status)).toEqual(["partial", "partial", "partial"]);
  broken = false;
  const reply = await call<{ runIds: string[]; impact: string }>(bulkRerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: { automationId, from: "failed_step" },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  expect(reply.body.runIds).toHaveLength(3);
  expect(reply.body.impact).toBe(
    "Starts 3 new runs from the step each failed at, each on its automation's active version with its record as it is now; the old runs stay as they are.",
  );
  const runs = await settledRuns(automationId, 6);
  const reruns = runs.filter((r) => reply.body.runIds.includes(r.id));
  expect(reruns.map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
  // Nothing left to re-run: the succeeded re-runs are not picked, the old ones still are, once more.
  const again = await call<{ runIds: string[]; impact: string }>(bulkRerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: { automationId, status: "cancelled" },
  });
  expect(again.body).toEqual({ runIds: [], impact: "No run here can be re-run." });
});
