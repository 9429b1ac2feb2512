import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { automationImpact } from "@/lib/automations/lifecycle/impact";
import { getRun } from "@/lib/automations/runs/detail";
import { eventWaitFromStep, waitingSentence } from "@/lib/automations/nodes/timing/wait-for-event.run";
import { listWaiting } from "@/lib/automations/waits/waits";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { runInStatus, until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * What a merchant reads of a wait for an event, with the real worker: the Waiting list says what
 * it waits for, on which order; the run's detail says what came, or that nothing did; the impact
 * sentence names the kind.
 */

let shop: TestShop;
let automationId: string;
beforeAll(async () => {
  shop = await createShop();
  automationId = await publishFlow(
    shop.keys.editor,
    "Remind unless shipped",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "w",
          type: "auto.control.wait_for_event",
          params: { event: "order.fulfilled", timeoutHours: 48 },
        },
        { id: "late", type: "auto.action.add_tag", params: { tag: "reminded" } },
      ],
      [
        ["t", "w"],
        ["w", "late", "timed_out"],
      ],
    ),
  );
});
workerForFile();

async function waitingRun(orderId: string) {
  await placeOrder(shop, orderId, { email: `${orderId}@example.com` });
  await placeOrder(shop, orderId, { email: `${orderId}@example.com`, status: "paid" });
  const run = await until(
    async () =>
      (
        await getDb()
          .select()
          .from(automationRuns)
          .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, orderId)))
      )[0],
    (found) => found !== undefined,
    { timeoutMs: 10_000, what: `the run for ${orderId}` },
  );
  return runInStatus(run!.id, ["waiting"]);
}

describe("a wait for an event, as the merchant reads it", () => {
  test("the Waiting list says what it waits for on which order; the detail says when it came", async () => {
    const run = await waitingRun("ewv-1");
    const page = await listWaiting(shop.tenant.id, automationId);
    const item = page.items.find((w) => w.runId === run.id)!;
    expect(item).toMatchObject({ kind: "event", waitingFor: "order.fulfilled", received: null });
    expect(waitingSentence(item)).toBe("Waiting for Order fulfilled on Order #1");
    expect((await automationImpact(shop.tenant.id, automationId, "pause")).message).toMatch(
      /^1 run is waiting for an event at 'Wait up to 2 days for 'Order fulfilled''; any that come due \(or whose event comes\) while/,
    );

    await placeOrder(shop, "ewv-1", { email: "ewv-1@example.com", status: "fulfilled" });
    await runInStatus(run.id, ["succeeded"]);
    const detail = await getRun(shop.tenant.id, run.id);
    expect(detail.waits[0]).toMatchObject({ status: "resumed", waitingFor: "order.fulfilled" });
    expect(detail.waits[0]!.received).toMatchObject({ type: "order.fulfilled" });
    const step = detail.steps.find((s) => s.nodeId === "w")!;
    expect(eventWaitFromStep(step)).toMatchObject({ state: "received", eventName: "Order fulfilled" });
    expect(detail.steps.map((s) => s.nodeId)).not.toContain("late");
  });

  test("Resume now: nothing came, the step reads as timed out and the run takes 'Timed out'", async () => {
    const run = await waitingRun("ewv-2");
    const wait = (await getRun(shop.tenant.id, run.id)).waits[0]!;
    const res = await call<ErrorReply>(resumeNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: wait.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runInStatus(run.id, ["succeeded"]);
    const detail = await getRun(shop.tenant.id, run.id);
    expect(detail.waits[0]).toMatchObject({ status: "resumed", received: null });
    const step = detail.steps.find((s) => s.nodeId === "w")!;
    expect(eventWaitFromStep(step)).toMatchObject({ state: "timed_out", limit: "2 days" });
    expect(detail.steps.map((s) => s.nodeId)).toContain("late");
  });
});
