import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { approvalAsks, findApproval } from "@/lib/automations/waits/approval-reads";
import { executeRun, resumeWait } from "@/lib/automations/engine/pipeline";
import { getRun } from "@/lib/automations/runs/detail";
import { listRuns } from "@/lib/automations/runs/history";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

/*
 * What pages read about approvals besides the approvals service: a run's badge ("Awaiting
 * approval"), the approval on the run's waits, the titles in Waiting lists, and one approval by id.
 * No worker runs here: each leg is run in the test, so nothing moves on its own.
 *
 *   t (order_paid) ──▶ review (approval "Review order {entity.number}", 72 h, admin)
 *                        ├─approved──▶ ok (add_tag reviewed)
 *                        └─rejected──▶ no (add_note)
 */
const review = flow(
  [
    { id: "t", type: "auto.trigger.order_paid" },
    {
      id: "review",
      type: "auto.control.approval",
      params: { title: "Review order {entity.number}", timeoutHours: 72, approverRole: "admin" },
    },
    { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
    { id: "no", type: "auto.action.add_note", params: { body: "Rejected in review" } },
  ],
  [
    ["t", "review"],
    ["review", "ok", "approved"],
    ["review", "no", "rejected"],
  ],
);

let shop: TestShop;
let other: TestShop;
let automationId: string;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  automationId = await publishFlow(shop.keys.editor, "Review big orders", review);
});

/** Pays an order and runs its first leg here, up to the approval. */
async function askedAbout(entityId: string) {
  const order = { number: `#${entityId}`, total: 1500, currency: "EUR" };
  // Created pending, then paid: the status change is what emits order.paid.
  await upsertEntity(shop.tenant.id, "order", entityId, { ...order, status: "pending" }, "test");
  await upsertEntity(shop.tenant.id, "order", entityId, { ...order, status: "paid" }, "test");
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)));
  await executeRun(run!.id);
  const [wait] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run!.id));
  return { runId: run!.id, waitId: wait!.id };
}

describe("approval reads", () => {
  test("a run waiting at an undecided approval is awaiting approval, in the list and on its page", async () => {
    const { runId, waitId } = await askedAbout("ar-1");
    const list = await listRuns(shop.tenant.id, { automationId, status: "waiting" });
    expect(list.items.map((r) => [r.id, r.awaitingApproval])).toEqual([[runId, true]]);

    const run = await getRun(shop.tenant.id, runId);
    expect(run.awaitingApproval).toBe(true);
    expect(run.waits).toHaveLength(1);
    expect(run.waits[0]).toMatchObject({
      id: waitId,
      kind: "approval",
      approval: {
        title: "Review order #ar-1",
        approverRole: "admin",
        timeoutHours: 72,
        state: "pending",
        decidedBy: null,
      },
    });
    const timesOut = new Date(run.waits[0]!.approval!.timesOutAt!).getTime();
    expect(timesOut - Date.now()).toBeGreaterThan(71 * 3_600_000);
    // The wait's step is the one the timeline shows the decision box on.
    expect(run.steps.find((s) => s.id === run.waits[0]!.stepId)?.nodeId).toBe("review");
  });

  test("after the decision the run shows who decided what, with the note, and goes on", async () => {
    const { runId, waitId } = await askedAbout("ar-2");
    const decided = await call(decideRoute, {
      method: "POST",
      key: shop.keys.admin,
      params: { waitId },
      body: { decision: "approved", note: "Known customer" },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);

    // Decided but not yet resumed: no longer awaiting approval.
    const before = await getRun(shop.tenant.id, runId);
    expect(before.awaitingApproval).toBe(false);
    expect(before.waits[0]!.approval).toMatchObject({
      state: "approved",
      decidedBy: expect.stringMatching(/^API key /),
      note: "Known customer",
    });

    expect(await resumeWait(waitId)).toBe("resumed");
    const run = await getRun(shop.tenant.id, runId);
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((s) => [s.nodeId, s.leg, s.status])).toEqual([
      ["review", 1, "success"],
      ["ok", 2, "success"],
    ]);
    expect(run.waits[0]!.approval).toMatchObject({ state: "approved", note: "Known customer" });
    expect(run.steps[0]!.output).toMatchObject({ decision: "approved", note: "Known customer" });
  });

  test("Waiting lists get what each approval asks and of whom; other kinds and shops get nothing", async () => {
    const { waitId } = await askedAbout("ar-3");
    expect(await approvalAsks(shop.tenant.id, [waitId])).toEqual(
      new Map([[waitId, { title: "Review order #ar-3", approverRole: "admin" }]]),
    );
    expect(await approvalAsks(other.tenant.id, [waitId])).toEqual(new Map());
    expect(await approvalAsks(shop.tenant.id, [])).toEqual(new Map());
  });

  test("one approval by its wait id, for ?wait= links: scoped to the shop", async () => {
    const { runId, waitId } = await askedAbout("ar-4");
    expect(await findApproval(shop.tenant.id, waitId)).toMatchObject({
      waitId,
      runId,
      title: "Review order #ar-4",
      state: "pending",
    });
    expect(await findApproval(other.tenant.id, waitId)).toBeNull();
    expect(await findApproval(shop.tenant.id, "not-a-uuid")).toBeNull();
  });
});
