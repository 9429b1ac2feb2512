import { and, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { GET as waitingRoute } from "@/app/api/v1/automations/[id]/waiting/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps, automationRunWaits, type RunStatus } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { until } from "@/tests/helpers/poll";

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});
workerForFile();

//  order_created ──▶ later(when 3d, step check-in, key {entity.id}, then {…})
//  later(check-in) ──▶ create_task(Check in on {event.payload.then.note})
const laterFlow = (when = "3d") =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      {
        id: "ask",
        type: "auto.action.later",
        params: { when, step: "check-in", key: "{entity.id}", then: { note: "first order" } },
      },
      { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
      {
        id: "task",
        type: "auto.action.create_task",
        params: { title: "Check in on {event.payload.then.note}" },
      },
    ],
    [
      ["t", "ask"],
      ["back", "task"],
    ],
  );

async function runsOf(automationId: string) {
  return getDb()
    .select()
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId))
    .orderBy(automationRuns.createdAt);
}

async function untilRuns(automationId: string, count: number, statuses: RunStatus[]) {
  await until(
    () => runsOf(automationId),
    (runs) => runs.filter((r) => statuses.includes(r.status)).length === count,
    {
      timeoutMs: 15_000,
      intervalMs: 50,
      what: `${count} runs of ${automationId} to be ${statuses.join(" or ")}`,
    },
  );
  return runsOf(automationId);
}

async function pendingLaters(automationId: string) {
  return getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.automationId, automationId), eq(automationRunWaits.status, "pending")));
}

test("a later step lets its run finish, and when due starts a new run at the Later trigger with what it asked to be handed", async () => {
  const id = await publishFlow(shop.keys.editor, "Check in", laterFlow());
  const before = Date.now();
  await upsertEntity(
    shop.tenant.id,
    "order",
    "l-1",
    { number: "1", status: "pending", total: 5, currency: "EUR" },
    "test",
  );
  const [asker] = await untilRuns(id, 1, ["succeeded"]);
  const [later] = await pendingLaters(id);
  expect(later).toMatchObject({ kind: "later", key: "l-1", runId: asker!.id });
  expect(later!.resumeAt.getTime()).toBeGreaterThanOrEqual(before + 3 * 86_400_000);

  const waiting = await call<{
    items: { id: string; kind: string; key: string; step: string; then: unknown }[];
  }>(waitingRoute, {
    key: shop.keys.viewer,
    params: { id },
  });
  expect(waiting.body.items).toEqual([
    expect.objectContaining({
      id: later!.id,
      kind: "later",
      key: "l-1",
      step: "check-in",
      then: { note: "first order" },
    }),
  ]);

  // "Try it now": the later comes due at once.
  const now = await call<ErrorReply>(resumeNowRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: later!.id },
  });
  expect(now.status).toBe(200);
  const runs = await untilRuns(id, 2, ["succeeded"]);
  const started = runs.find((r) => r.id !== asker!.id)!;
  expect(started.event).toMatchObject({
    type: "later",
    payload: { step: "check-in", then: { note: "first order" }, key: "l-1", fromRunId: asker!.id, chain: 1 },
  });
  expect(started.triggerNodeId).toBe("back");
  const steps = await getDb()
    .select()
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, started.id));
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([["task", "success"]]);
  expect(steps[0]!.input).toMatchObject({ title: "Check in on first order" });
});

test("asking again under the same key replaces the later that was waiting", async () => {
  const id = await publishFlow(shop.keys.editor, "Replace", laterFlow("2h"));
  await upsertEntity(
    shop.tenant.id,
    "order",
    "l-2",
    { number: "2", status: "pending", total: 5, currency: "EUR" },
    "test",
  );
  await untilRuns(id, 1, ["succeeded"]);
  const [first] = await pendingLaters(id);
  // A second order.created for the same record (an external event) asks again under key 'l-2'.
  const { ingestEvent } = await import("@/lib/automations/engine/start/api");
  await ingestEvent(shop.tenant.id, { type: "order.created", domain: "order", entityId: "l-2" });
  await untilRuns(id, 2, ["succeeded"]);
  const pending = await pendingLaters(id);
  expect(pending).toHaveLength(1);
  expect(pending[0]!.id).not.toBe(first!.id);
  const [old] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, first!.id));
  expect(old).toMatchObject({
    status: "cancelled",
    reason: "Replaced by a newer later step with the same key.",
  });
});

test("a later that comes due while its automation is off is dropped, and the Waiting list says so", async () => {
  const id = await publishFlow(shop.keys.editor, "Off", laterFlow("30m"));
  await upsertEntity(
    shop.tenant.id,
    "order",
    "l-3",
    { number: "3", status: "pending", total: 5, currency: "EUR" },
    "test",
  );
  await untilRuns(id, 1, ["succeeded"]);
  const [later] = await pendingLaters(id);
  await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id } });
  await call(resumeNowRoute, { method: "POST", key: shop.keys.editor, params: { id: later!.id } });
  await expect
    .poll(
      async () =>
        (await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, later!.id)))[0]!
          .status,
      {
        timeout: 10_000,
      },
    )
    .toBe("cancelled");
  const list = await call<{ dropped: { id: string; reason: string }[] }>(waitingRoute, {
    key: shop.keys.viewer,
    params: { id },
  });
  expect(list.body.dropped).toEqual([
    expect.objectContaining({
      id: later!.id,
      reason: "The automation was off when this later step came due, so it was dropped.",
    }),
  ]);
  expect(await runsOf(id)).toHaveLength(1);
});

test("a later outside 1 minute .. 90 days fails its step; a later step with no Later trigger is a ready issue", async () => {
  const id = await publishFlow(shop.keys.editor, "Too far", laterFlow("100d"));
  await upsertEntity(
    shop.tenant.id,
    "order",
    "l-4",
    { number: "4", status: "pending", total: 5, currency: "EUR" },
    "test",
  );
  const [run] = await untilRuns(id, 1, ["failed"]);
  const [step] = await getDb().select().from(automationRunSteps).where(eq(automationRunSteps.runId, run!.id));
  expect(step!.error).toBe(
    "A later step must be at least 1 minute and at most 90 days ahead; '100d' is not.",
  );

  const orphan = await call<{ readyIssues: { nodeId?: string; message: string }[] }>(createRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: {
      name: "Orphan",
      graph: flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "ask", type: "auto.action.later", params: { when: "1h", step: "nobody" } },
        ],
        [["t", "ask"]],
      ),
    },
  });
  expect(orphan.body.readyIssues).toEqual([
    {
      nodeId: "ask",
      message: "No Later trigger in this flow starts at step 'nobody'; add one with that name.",
    },
  ]);
});
