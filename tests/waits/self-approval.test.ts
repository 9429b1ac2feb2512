import { and, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { POST as rerunRoute } from "@/app/api/v1/runs/[id]/rerun/route";
import { POST as bulkRerunRoute } from "@/app/api/v1/runs/rerun/route";
import { POST as cancelRoute } from "@/app/api/v1/waits/[id]/cancel/route";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { runInStatus, until } from "@/tests/helpers/poll";

/*
 * An approval step with `allowSelfApproval: false` (the default of a new step) may not be decided
 * by whoever started the run — here the editor's API key that asked for a re-run — while anyone
 * else with the approver role may; a run started by no person (an order's event) forbids nobody,
 * and a step saved before the setting existed (no param) keeps today's behaviour.
 */

let shop: TestShop;

beforeAll(async () => {
  shop = await createShop();
});
workerForFile();

//  order_paid ──▶ review (approval) ──approved──▶ tag(reviewed)
const reviewFlow = (review: Record<string, unknown>) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      {
        id: "review",
        type: "auto.control.approval",
        params: { title: "Review", timeoutHours: 72, approverRole: "editor", ...review },
      },
      { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
    ],
    [
      ["t", "review"],
      ["review", "ok", "approved"],
    ],
  );

async function paidOrder(id: string) {
  const order = { number: `#${id}`, total: 10, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", id, { ...order, status: "pending" }, "test");
  await upsertEntity(shop.tenant.id, "order", id, { ...order, status: "paid" }, "test");
}

async function pendingApproval(runId: string) {
  const [wait] = await until(
    () =>
      getDb()
        .select()
        .from(automationRunWaits)
        .where(
          and(
            eq(automationRunWaits.runId, runId),
            eq(automationRunWaits.kind, "approval"),
            eq(automationRunWaits.status, "pending"),
          ),
        ),
    (rows) => rows.length === 1,
    { timeoutMs: 15_000, what: `run ${runId} to wait for an approval` },
  );
  return wait!;
}

async function eventRun(automationId: string, entityId: string) {
  const [run] = await until(
    () =>
      getDb()
        .select()
        .from(automationRuns)
        .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId))),
    (rows) => rows.length === 1,
    { timeoutMs: 15_000, what: "the order's run" },
  );
  return run!;
}

const decide = (waitId: string, key: string) =>
  call<ApprovalView & ErrorReply>(decideRoute, {
    method: "POST",
    key,
    params: { waitId },
    body: { decision: "approved" },
  });

/** A run of the order's event, cancelled at its approval: a run that can be re-run. */
async function cancelledRun(automationId: string, entityId: string) {
  await paidOrder(entityId);
  const run = await eventRun(automationId, entityId);
  const wait = await pendingApproval(run.id);
  const cancelled = await call(cancelRoute, {
    method: "POST",
    key: shop.keys.admin,
    params: { id: wait.id },
  });
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  await runInStatus(run.id, ["cancelled"]);
  return run;
}

async function rerunAsEditor(runId: string): Promise<string> {
  const reply = await call<{ run: { id: string } }>(rerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: runId },
    body: {},
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.run.id;
}

test("who started the run cannot approve it when the step forbids it; another approver can; an event's run forbids nobody", async () => {
  const automationId = await publishFlow(
    shop.keys.editor,
    "Four eyes",
    reviewFlow({ allowSelfApproval: false }),
  );
  await paidOrder("self-1");
  // Started by the order's event, not a person: the editor may decide.
  const first = await eventRun(automationId, "self-1");
  expect((await decide((await pendingApproval(first.id)).id, shop.keys.editor)).status).toBe(200);
  await runInStatus(first.id, ["succeeded"]);

  // The editor re-runs one: the new run's approval is not theirs to decide.
  const cancelled = await cancelledRun(automationId, "self-1b");
  const again = await rerunAsEditor(cancelled.id);
  const wait = await pendingApproval(again);
  const refused = await decide(wait.id, shop.keys.editor);
  expect(refused.status).toBe(403);
  expect(refused.body.error.message).toBe(
    "You started this run, and this approval must be decided by someone else. Ask another approver.",
  );
  // Nothing was decided; another approver (the admin) decides it.
  const [still] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, wait.id));
  expect(still!.status).toBe("pending");
  expect((await decide(wait.id, shop.keys.admin)).status).toBe(200);
  await runInStatus(again, ["succeeded"]);

  // A bulk re-run by the editor is theirs too.
  const bulk = await call<{ runIds: string[] }>(bulkRerunRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: { ids: [cancelled.id] },
  });
  expect(bulk.status, JSON.stringify(bulk.body)).toBe(201);
  const bulkWait = await pendingApproval(bulk.body.runIds[0]!);
  expect((await decide(bulkWait.id, shop.keys.editor)).status).toBe(403);
  expect((await decide(bulkWait.id, shop.keys.admin)).status).toBe(200);
});

test("a step saved without the setting lets the run's starter decide, as before", async () => {
  const automationId = await publishFlow(shop.keys.editor, "Old step", reviewFlow({}));
  const cancelled = await cancelledRun(automationId, "self-2");
  const again = await rerunAsEditor(cancelled.id);
  expect((await decide((await pendingApproval(again)).id, shop.keys.editor)).status).toBe(200);
});

test("a new approval step forbids self-approval by default", async () => {
  const { approval } = await import("@/lib/automations/nodes/timing/approval");
  expect(approval.defaultParams()).toMatchObject({ allowSelfApproval: false });
});
