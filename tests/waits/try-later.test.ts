import { and, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as tryLaterRoute } from "@/app/api/v1/automations/[id]/try-later/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import { auditEvents, automationRuns, automationRunSteps } from "@/lib/db/schema";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});
workerForFile();

//  order_created ──▶ later(3d, step check-in, then {note})
//  later(check-in) ──▶ create_task(Check in on {event.then.x}, the {event.step} step, old form {event.payload.then.x})
//  later(follow-up) ──▶ add_tag(followed)
const laterFlow = () =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "ask", type: "auto.action.later", params: { when: "3d", step: "check-in", then: { x: "a" } } },
      { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
      {
        id: "task",
        type: "auto.action.create_task",
        params: {
          title: "Check in on {event.then.x}, the {event.step} step, old form {event.payload.then.x}",
        },
      },
      { id: "back2", type: "auto.trigger.later", params: { step: "follow-up" } },
      { id: "task2", type: "auto.action.create_task", params: { title: "Follow up" } },
    ],
    [
      ["t", "ask"],
      ["back", "task"],
      ["back2", "task2"],
    ],
  );

interface TriedRun {
  run: { id: string; automationId: string; status: string; event: { type: string; payload: unknown } };
}

test("Try it later runs the step's Later trigger now, as a real run whose tokens see what it was handed", async () => {
  const id = await publishFlow(shop.keys.editor, "Check in", laterFlow());
  const before = Date.now();
  const tried = await call<TriedRun>(tryLaterRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id },
    body: { step: "check-in", then: { x: "the first order" } },
  });
  expect(tried.status, JSON.stringify(tried.body)).toBe(201);
  expect(tried.body.run).toMatchObject({
    automationId: id,
    event: {
      type: "later",
      payload: { step: "check-in", then: { x: "the first order" }, key: null, fromRunId: null, chain: 1 },
    },
  });
  const [run] = await settledRuns(id);
  expect(run).toMatchObject({ id: tried.body.run.id, status: "succeeded" });
  const [row] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(row!.triggerNodeId).toBe("back");
  const due = Date.parse(String((row!.event.payload as { due: string }).due));
  expect(due).toBeGreaterThanOrEqual(before - 1000);
  expect(due).toBeLessThanOrEqual(Date.now());

  // Only the steps after that Later trigger ran, with the token filled in from `then`.
  const steps = await getDb().select().from(automationRunSteps).where(eq(automationRunSteps.runId, run!.id));
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([["task", "success"]]);
  expect(steps[0]!.input).toMatchObject({
    title: "Check in on the first order, the check-in step, old form the first order",
  });

  // The run shows what it was handed; the audit log says who tried which step.
  const shown = await call<{ event: { payload: { then: unknown } } }>(runRoute, {
    key: shop.keys.viewer,
    params: { id: run!.id },
  });
  expect(shown.body.event.payload.then).toEqual({ x: "the first order" });
  const [audit] = await getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, shop.tenant.id), eq(auditEvents.action, "automation.later_tried")));
  expect(audit).toMatchObject({
    subjectId: id,
    detail: { name: "Check in", step: "check-in", runId: run!.id },
  });
});

test("Try it later without `then` hands back an empty object", async () => {
  const id = await publishFlow(shop.keys.editor, "No then", laterFlow());
  const tried = await call<TriedRun>(tryLaterRoute, {
    method: "POST",
    key: shop.keys.admin,
    params: { id },
    body: { step: "follow-up" },
  });
  expect(tried.status).toBe(201);
  const [run] = await settledRuns(id);
  expect(run!.status).toBe("succeeded");
  const steps = await getDb().select().from(automationRunSteps).where(eq(automationRunSteps.runId, run!.id));
  expect(steps.map((s) => s.nodeId)).toEqual(["task2"]);
  expect(tried.body.run.event.payload).toMatchObject({ step: "follow-up", then: {} });
});

test("Try it later is refused with a reason: unknown step, no Later trigger, automation off, bad `then`", async () => {
  const id = await publishFlow(shop.keys.editor, "Refusals", laterFlow());
  const attempt = (body: unknown, automationId = id, key = shop.keys.editor) =>
    call<ErrorReply>(tryLaterRoute, { method: "POST", key, params: { id: automationId }, body });

  const unknown = await attempt({ step: "nope" });
  expect(unknown.status).toBe(422);
  expect(unknown.body.error.message).toBe(
    "'Refusals' has no Later trigger for step 'nope'; its later steps are 'check-in', 'follow-up'.",
  );

  const notObject = await attempt({ step: "check-in", then: [1, 2] });
  expect(notObject.status).toBe(400);
  expect(notObject.body.error.message).toMatch(/'then' must be a JSON object/);
  const tooBig = await attempt({ step: "check-in", then: { blob: "x".repeat(17_000) } });
  expect(tooBig.status).toBe(400);
  expect(tooBig.body.error.message).toBe(
    "'then' is 18 KB of JSON; a later step can be handed at most 16 KB.",
  );

  const viewer = await attempt({ step: "check-in" }, id, shop.keys.viewer);
  expect(viewer.status).toBe(403);

  await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id } });
  const off = await attempt({ step: "check-in" });
  expect(off.status).toBe(409);
  expect(off.body.error.message).toBe("'Refusals' is paused; turn it on first to try a later step.");

  const plain = await publishFlow(
    shop.keys.editor,
    "Plain",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "x" } },
      ],
      [["t", "tag"]],
    ),
  );
  const none = await attempt({ step: "check-in" }, plain);
  expect(none.status).toBe(422);
  expect(none.body.error.message).toBe("'Plain' has no Later trigger, so there is no later step to try.");

  const runs = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  expect(runs).toEqual([]);
});
