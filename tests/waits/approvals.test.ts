import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as listRoute } from "@/app/api/v1/approvals/route";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { addMember } from "@/lib/auth/users";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import { automationImpact } from "@/lib/automations/lifecycle/impact";
import { listRuns } from "@/lib/automations/runs/history";
import { getDb } from "@/lib/db/client";
import {
  auditEvents,
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  entities,
  outboxEmails,
} from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, type FlowNode } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { runInStatus } from "@/tests/helpers/poll";

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await addMember(shop.tenant.id, {
    email: `boss-${shop.tenant.slug}@demo.test`,
    name: "Boss",
    role: "admin",
    password: "tillflow-demo",
  });
  await addMember(shop.tenant.id, {
    email: `ed-${shop.tenant.slug}@demo.test`,
    name: "Ed",
    role: "editor",
    password: "tillflow-demo",
  });
  await addMember(shop.tenant.id, {
    email: `vi-${shop.tenant.slug}@demo.test`,
    name: "Vi",
    role: "viewer",
    password: "tillflow-demo",
  });
});
workerForFile();

const review = (role: "editor" | "admin" = "editor"): FlowNode => ({
  id: "review",
  type: "auto.control.approval",
  params: { title: "Review order {entity.number}", timeoutHours: 72, approverRole: role },
});

//  order_paid ──▶ review (approval) ──approved──▶ tag(reviewed)
//                                   ├─rejected──▶ note(Rejected)
//                                   └─timed_out─▶ tag(unreviewed)
const reviewFlow = (
  role: "editor" | "admin" = "editor",
  before: FlowNode[] = [],
  lead: [string, string][] = [["t", "review"]],
) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      ...before,
      review(role),
      { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
      { id: "no", type: "auto.action.add_note", params: { body: "Rejected in review" } },
      { id: "late", type: "auto.action.add_tag", params: { tag: "unreviewed" } },
    ],
    [...lead, ["review", "ok", "approved"], ["review", "no", "rejected"], ["review", "late", "timed_out"]],
  );

async function paidOrder(id: string, total = 1500) {
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "pending", total, currency: "EUR" },
    "test",
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "paid", total, currency: "EUR" },
    "test",
  );
}

async function runFor(automationId: string, entityId: string) {
  await expect
    .poll(
      async () =>
        (
          await getDb()
            .select()
            .from(automationRuns)
            .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)))
        ).length,
    )
    .toBe(1);
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)));
  return run!;
}

async function approvalOf(runId: string) {
  await expect
    .poll(
      async () =>
        (
          await getDb()
            .select()
            .from(automationRunWaits)
            .where(and(eq(automationRunWaits.runId, runId), eq(automationRunWaits.kind, "approval")))
        ).length,
    )
    .toBe(1);
  const [wait] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, runId), eq(automationRunWaits.kind, "approval")));
  return wait!;
}

const decide = (waitId: string, key: string, body: unknown) =>
  call<ApprovalView & ErrorReply>(decideRoute, { method: "POST", key, params: { waitId }, body });
const tagsOf = async (id: string) =>
  (await getDb().select({ tags: entities.tags }).from(entities).where(eq(entities.id, id)))[0]!.tags;
const stepsOf = async (runId: string) =>
  getDb()
    .select()
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(automationRunSteps.leg, automationRunSteps.position);

describe("approvals", () => {
  test("approve: the run waits for a decision, approvers are emailed, and approving follows 'approved'", async () => {
    const id = await publishFlow(shop.keys.editor, "Review", reviewFlow());
    await paidOrder("a-1");
    const run = await runFor(id, "a-1");
    expect((await runInStatus(run.id, ["waiting"])).status).toBe("waiting");
    const wait = await approvalOf(run.id);

    const pending = await call<{ items: ApprovalView[] }>(listRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/approvals?status=pending",
    });
    expect(pending.body.items.find((a) => a.waitId === wait.id)).toMatchObject({
      title: "Review order #a-1",
      status: "pending",
      approverRole: "editor",
      entity: { domain: "order", id: "a-1" },
    });
    const emails = await getDb().select().from(outboxEmails).where(eq(outboxEmails.runId, run.id));
    expect(emails.map((e) => e.to).sort()).toEqual([
      `boss-${shop.tenant.slug}@demo.test`,
      `ed-${shop.tenant.slug}@demo.test`,
    ]);
    expect(emails[0]!.subject).toBe("Approval needed: Review order #a-1");
    expect(emails[0]!.bodyHtml).toContain(`/approvals?wait=${wait.id}`);

    const approved = await decide(wait.id, shop.keys.editor, { decision: "approved", note: "Looks fine" });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", note: "Looks fine" });
    expect((await runInStatus(run.id, ["succeeded", "failed", "partial", "cancelled"])).status).toBe(
      "succeeded",
    );
    expect(await tagsOf("a-1")).toEqual(["reviewed"]);
    const steps = await stepsOf(run.id);
    expect(steps.map((s) => [s.nodeId, s.leg, s.status])).toEqual([
      ["review", 1, "success"],
      ["ok", 2, "success"],
    ]);
    expect(steps[0]!.output).toMatchObject({
      decision: "approved",
      note: "Looks fine",
      decidedBy: expect.stringContaining("API key"),
    });
    const [audit] = await getDb().select().from(auditEvents).where(eq(auditEvents.subjectId, wait.id));
    expect(audit).toMatchObject({
      action: "approval.decided",
      detail: { decision: "approved", note: "Looks fine" },
    });

    const again = await decide(wait.id, shop.keys.admin, { decision: "rejected" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already approved by API key/);
  });

  test("reject follows 'rejected'; a viewer gets 403, another shop 404, a bad decision 422 — none of them change anything", async () => {
    const id = await publishFlow(shop.keys.editor, "Reject", reviewFlow());
    await paidOrder("r-1");
    const run = await runFor(id, "r-1");
    await runInStatus(run.id, ["waiting"]);
    const wait = await approvalOf(run.id);
    expect((await decide(wait.id, shop.keys.viewer, { decision: "approved" })).status).toBe(403);
    expect((await decide(wait.id, other.keys.editor, { decision: "approved" })).status).toBe(404);
    const bad = await decide(wait.id, shop.keys.editor, { decision: "maybe" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toMatch(/decision/);
    expect(
      (await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, wait.id)))[0],
    ).toMatchObject({ status: "pending", decision: null });

    expect((await decide(wait.id, shop.keys.editor, { decision: "rejected" })).status).toBe(200);
    expect((await runInStatus(run.id, ["succeeded", "failed", "partial"])).status).toBe("succeeded");
    expect(await tagsOf("r-1")).toEqual([]);
    expect((await stepsOf(run.id)).map((s) => s.nodeId)).toEqual(["review", "no"]);
  });

  test("an admin-only approval refuses an editor; timing out (decide as timed out now) follows 'timed_out', and a decision after it is 409", async () => {
    const id = await publishFlow(shop.keys.editor, "Admins", reviewFlow("admin"));
    await paidOrder("t-1");
    const run = await runFor(id, "t-1");
    await runInStatus(run.id, ["waiting"]);
    const wait = await approvalOf(run.id);
    const refused = await decide(wait.id, shop.keys.editor, { decision: "approved" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("Only an admin can decide this approval.");
    // Nor can an editor "decide it as timed out now".
    expect(
      (await call(resumeNowRoute, { method: "POST", key: shop.keys.editor, params: { id: wait.id } })).status,
    ).toBe(403);

    expect(
      (await call(resumeNowRoute, { method: "POST", key: shop.keys.admin, params: { id: wait.id } })).status,
    ).toBe(200);
    expect((await runInStatus(run.id, ["succeeded", "failed", "partial"])).status).toBe("succeeded");
    expect(await tagsOf("t-1")).toEqual(["unreviewed"]);
    // Who timed it out is kept like any decider; the decision itself stays empty.
    const list = await call<{ items: ApprovalView[] }>(listRoute, {
      key: shop.keys.admin,
      path: "/api/v1/approvals?status=all",
    });
    const view = list.body.items.find((item) => item.waitId === wait.id);
    expect(view).toMatchObject({ status: "timed_out", decidedBy: expect.stringMatching(/^API key /) });
    expect(view!.decidedAt).not.toBeNull();
    const late = await decide(wait.id, shop.keys.admin, { decision: "approved" });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/timed out/);
  });

  test("paused while awaiting a decision: the run is cancelled when the decision wakes it", async () => {
    const id = await publishFlow(shop.keys.editor, "Paused", reviewFlow());
    await paidOrder("p-1");
    const run = await runFor(id, "p-1");
    await runInStatus(run.id, ["waiting"]);
    const wait = await approvalOf(run.id);
    expect((await automationImpact(shop.tenant.id, id, "pause")).message).toMatch(
      /^1 run awaits approval at 'Approval: Review order \[the order's number\] · 72 h'; any that come due while the automation is paused will be cancelled/,
    );
    expect((await call(pauseRoute, { method: "POST", key: shop.keys.admin, params: { id } })).status).toBe(
      200,
    );
    expect((await decide(wait.id, shop.keys.editor, { decision: "approved" })).status).toBe(200);
    const ended = await runInStatus(run.id, ["cancelled", "succeeded"]);
    expect(ended).toMatchObject({
      status: "cancelled",
      reason: "The automation was paused while this run was waiting.",
    });
    expect(await tagsOf("p-1")).toEqual([]);
  });

  test("an approval between two legs: a wait, then the approval, then the action", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Later review",
      reviewFlow(
        "editor",
        [{ id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } }],
        [
          ["t", "w"],
          ["w", "review"],
        ],
      ),
    );
    await paidOrder("m-1");
    const run = await runFor(id, "m-1");
    await runInStatus(run.id, ["waiting"]);
    const [delay] = await getDb()
      .select()
      .from(automationRunWaits)
      .where(eq(automationRunWaits.runId, run.id));
    await call(resumeNowRoute, { method: "POST", key: shop.keys.editor, params: { id: delay!.id } });
    const wait = await approvalOf(run.id);
    expect((await runInStatus(run.id, ["waiting"])).status).toBe("waiting");
    expect((await decide(wait.id, shop.keys.editor, { decision: "approved" })).status).toBe(200);
    expect((await runInStatus(run.id, ["succeeded", "failed", "partial"])).status).toBe("succeeded");
    expect((await stepsOf(run.id)).map((s) => [s.nodeId, s.leg])).toEqual([
      ["w", 1],
      ["review", 2],
      ["ok", 3],
    ]);
  });

  test("the runs list says 'awaiting approval' only for runs that await one, not for a plain wait beside them", async () => {
    const asking = await publishFlow(shop.keys.editor, "Asks", reviewFlow());
    const waiting = await publishFlow(
      shop.keys.editor,
      "Waits",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
          { id: "a", type: "auto.action.add_tag", params: { tag: "later" } },
        ],
        [
          ["t", "w"],
          ["w", "a"],
        ],
      ),
    );
    await paidOrder("l-1");
    const asked = await runFor(asking, "l-1");
    const parked = await runFor(waiting, "l-1");
    await runInStatus(asked.id, ["waiting"]);
    await runInStatus(parked.id, ["waiting"]);
    const { items } = await listRuns(shop.tenant.id, {});
    expect(items.find((r) => r.id === asked.id)).toMatchObject({ status: "waiting", awaitingApproval: true });
    expect(items.find((r) => r.id === parked.id)).toMatchObject({
      status: "waiting",
      awaitingApproval: false,
    });
  });
});
