import { and, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { GET as listRoute } from "@/app/api/v1/approvals/route";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { POST as cancelRoute } from "@/app/api/v1/waits/[id]/cancel/route";
import { POST as rerunRoute } from "@/app/api/v1/runs/[id]/rerun/route";
import { GET as listTeamsRoute, POST as createTeamRoute } from "@/app/api/v1/teams/route";
import { DELETE as deleteTeamRoute, PUT as updateTeamRoute } from "@/app/api/v1/teams/[id]/route";
import { createApiKey } from "@/lib/auth/api-keys";
import { addMember, type Member } from "@/lib/auth/users";
import { decideApproval, type ApprovalView } from "@/lib/automations/waits/approvals";
import { getDb } from "@/lib/db/client";
import {
  approvalVotes,
  auditEvents,
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  memberships,
  outboxEmails,
} from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import type { Caller } from "@/lib/identity/caller";
import type { Team } from "@/lib/teams/teams";
import { approvalRemind } from "@/worker/tasks/approval-remind";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { runInStatus, until } from "@/tests/helpers/poll";

/*
 * Quorum approvals (issue 53) on the real worker: every rule must be met by different people,
 * one vote per person whichever channel it comes by, the run's starter is refused, and an approval
 * that can no longer be approved follows 'Rejected' when a member is taken out (at once) or leaves
 * the shop (within the every-minute reminder tick).
 */

let shop: TestShop;
/** The shop's people, each with an API key of their own (which votes as them). */
const people: Record<string, Member & { key: string }> = {};
let finance: Team;

async function person(name: string, role: "admin" | "editor") {
  const member = await addMember(shop.tenant.id, {
    email: `${name}-${shop.tenant.slug}@demo.test`,
    name,
    role,
    password: "tillflow-demo",
  });
  const { key } = await createApiKey(shop.tenant.id, {
    name: `${name}'s key`,
    role,
    createdBy: member.userId,
  });
  people[name] = { ...member, key };
}

beforeAll(async () => {
  shop = await createShop();
  for (const name of ["ada", "bea", "cy"]) await person(name, "admin");
  for (const name of ["fin", "fay", "eve"]) await person(name, "editor");
  const made = await call<Team & ErrorReply>(createTeamRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Finance", members: [people.fin!.email, people.fay!.userId] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  finance = made.body;
});
workerForFile();

/** A user's own caller, as the inbox (and the email's link to it) decides for a signed-in person. */
function userCaller(name: string, role: "admin" | "editor"): Caller {
  const p = people[name]!;
  return {
    tenant: { id: shop.tenant.id, slug: shop.tenant.slug, name: shop.tenant.name, timezone: "UTC" },
    role,
    actor: { kind: "user", userId: p.userId, email: p.email, name },
  };
}

//  order_paid ──▶ review (approval) ──approved──▶ tag(approved)
//                                   └─rejected──▶ tag(rejected)
const quorumFlow = (review: Record<string, unknown>) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      {
        id: "review",
        type: "auto.control.approval",
        params: { title: "Refund", timeoutHours: 72, ...review },
      },
      { id: "ok", type: "auto.action.add_tag", params: { tag: "approved" } },
      { id: "no", type: "auto.action.add_tag", params: { tag: "rejected" } },
    ],
    [
      ["t", "review"],
      ["review", "ok", "approved"],
      ["review", "no", "rejected"],
    ],
  );

async function paidOrder(id: string) {
  const order = { number: `#${id}`, total: 1200, currency: "EUR" };
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
    { timeoutMs: 30_000, what: `run ${runId} to wait for an approval` },
  );
  return wait!;
}

/** Publishes the flow, pays an order and returns its run waiting at the approval. */
async function waitingRun(name: string, review: Record<string, unknown>, order: string) {
  const automationId = await publishFlow(shop.keys.admin, name, quorumFlow(review));
  await paidOrder(order);
  const [run] = await until(
    () =>
      getDb()
        .select()
        .from(automationRuns)
        .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, order))),
    (rows) => rows.length === 1,
    { timeoutMs: 30_000, what: "the order's run" },
  );
  return { automationId, run: run!, wait: await pendingApproval(run!.id) };
}

const vote = (waitId: string, key: string, decision: "approved" | "rejected" = "approved", note?: string) =>
  call<ApprovalView & ErrorReply>(decideRoute, {
    method: "POST",
    key,
    params: { waitId },
    body: { decision, ...(note ? { note } : {}) },
  });

async function viewOf(waitId: string): Promise<ApprovalView> {
  const list = await call<{ items: ApprovalView[] }>(listRoute, {
    key: shop.keys.viewer,
    path: "/api/v1/approvals?status=all&limit=200",
  });
  return list.body.items.find((a) => a.waitId === waitId)!;
}

async function stepsOf(runId: string) {
  return getDb()
    .select({ nodeId: automationRunSteps.nodeId, status: automationRunSteps.status })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(automationRunSteps.leg, automationRunSteps.position);
}

test("2 of 3 admins: the first vote leaves it waiting, the second approves it; a third is told it is decided", async () => {
  const { run, wait } = await waitingRun(
    "Two admins",
    { approvers: [{ role: "admin", required: 2 }] },
    "q-1",
  );
  // The quorum's email goes to the people it asks: the admins, not the editors.
  const emails = await getDb().select().from(outboxEmails).where(eq(outboxEmails.runId, run.id));
  expect(emails.map((e) => e.to).sort()).toEqual(["ada", "bea", "cy"].map((n) => people[n]!.email).sort());

  const first = await vote(wait.id, people.ada!.key, "approved", "Fine by me");
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body).toMatchObject({ status: "pending", needed: "1 of 2 admins still needed" });
  expect(first.body.votes).toEqual([
    { by: people.ada!.email, decision: "approved", at: expect.any(String), note: "Fine by me" },
  ]);
  // An editor is not among those asked.
  const editor = await vote(wait.id, people.eve!.key);
  expect(editor.status).toBe(403);
  expect(editor.body.error.message).toBe("This approval asks 2 admins, and you are not among them.");
  expect((await runInStatus(run.id, ["waiting"])).status).toBe("waiting");

  const second = await vote(wait.id, people.bea!.key);
  expect(second.status).toBe(200);
  expect(second.body).toMatchObject({ status: "approved", decidedBy: people.bea!.email, needed: null });
  expect((await runInStatus(run.id, ["succeeded", "failed", "partial"])).status).toBe("succeeded");
  expect(await stepsOf(run.id)).toEqual([
    { nodeId: "review", status: "success" },
    { nodeId: "ok", status: "success" },
  ]);
  const late = await vote(wait.id, people.cy!.key);
  expect(late.status).toBe(409);
  expect(late.body.error.message).toMatch(/^This approval was already approved by /);
});

test("a Finance member plus admins: both rules must be met, by different people, and the page says who is still needed", async () => {
  const { run, wait } = await waitingRun(
    "Finance and admins",
    {
      approvers: [
        { role: "admin", required: 2 },
        { team: finance.id, required: 1 },
      ],
    },
    "q-2",
  );
  expect((await viewOf(wait.id)).needed).toBe("2 admins, and 1 from Finance still needed");
  expect((await vote(wait.id, people.ada!.key)).body.needed).toBe(
    "1 of 2 admins, and 1 from Finance still needed",
  );
  expect((await vote(wait.id, people.fin!.key)).body.needed).toBe("1 of 2 admins still needed");
  expect((await runInStatus(run.id, ["waiting"])).status).toBe("waiting");
  const last = await vote(wait.id, people.cy!.key);
  expect(last.body).toMatchObject({ status: "approved" });
  expect(last.body.votes.map((v) => v.by)).toEqual(["ada", "fin", "cy"].map((n) => people[n]!.email));
  expect((await runInStatus(run.id, ["succeeded", "failed", "partial"])).status).toBe("succeeded");
  expect((await stepsOf(run.id)).map((s) => s.nodeId)).toEqual(["review", "ok"]);
});

test("one rejection rejects under 'any'; under 'majority' one is not enough", async () => {
  const any = await waitingRun("Any rejects", { approvers: [{ role: "admin", required: 2 }] }, "q-3");
  expect((await vote(any.wait.id, people.ada!.key, "rejected", "Too much")).body).toMatchObject({
    status: "rejected",
    note: "Too much",
  });
  await runInStatus(any.run.id, ["succeeded"]);
  expect((await stepsOf(any.run.id)).map((s) => s.nodeId)).toEqual(["review", "no"]);

  const majority = await waitingRun(
    "Majority rejects",
    { approvers: [{ team: finance.id, required: 1 }], reject: "majority" },
    "q-4",
  );
  // Finance has two people: one rejection of two is not more than half.
  expect((await vote(majority.wait.id, people.fin!.key, "rejected")).body.status).toBe("pending");
  expect((await vote(majority.wait.id, people.fay!.key, "approved")).body.status).toBe("approved");
});

test("the run's starter is refused a vote (403 with a sentence) through any channel; others decide", async () => {
  const first = await waitingRun("Starter", { approvers: [{ role: "admin", required: 1 }] }, "q-5");
  // Cancel the order's run, then Ada re-runs it with her key: the new run is hers.
  expect(
    (await call(cancelRoute, { method: "POST", key: shop.keys.admin, params: { id: first.wait.id } })).status,
  ).toBe(200);
  await runInStatus(first.run.id, ["cancelled"]);
  const rerun = await call<{ run: { id: string } }>(rerunRoute, {
    method: "POST",
    key: people.ada!.key,
    params: { id: first.run.id },
    body: {},
  });
  expect(rerun.status, JSON.stringify(rerun.body)).toBe(201);
  const wait = await pendingApproval(rerun.body.run.id);
  const sentence =
    "You started this run, and this approval must be decided by someone else. Ask another approver.";
  const byKey = await vote(wait.id, people.ada!.key);
  expect(byKey.status).toBe(403);
  expect(byKey.body.error.message).toBe(sentence);
  // Signed in (the inbox, or the email's link to it), she is the same person.
  await expect(
    decideApproval(userCaller("ada", "admin"), wait.id, { decision: "approved" }),
  ).rejects.toMatchObject({ status: 403, message: sentence });
  expect(await getDb().select().from(approvalVotes).where(eq(approvalVotes.waitId, wait.id))).toEqual([]);
  expect((await vote(wait.id, people.bea!.key)).body.status).toBe("approved");
  await runInStatus(rerun.body.run.id, ["succeeded"]);
});

test("the same person voting by the email's link, then by the API, counts once (409 with a sentence)", async () => {
  const { run, wait } = await waitingRun("Once each", { approvers: [{ role: "admin", required: 2 }] }, "q-6");
  const [email] = await getDb()
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.runId, run.id), eq(outboxEmails.to, people.ada!.email)));
  const linked = /\/approvals\?wait=([0-9a-f-]+)/.exec(email!.bodyHtml)![1]!;
  expect(linked).toBe(wait.id);
  // The link opens the inbox, whose button decides as the signed-in person.
  const inbox = await decideApproval(userCaller("ada", "admin"), linked, { decision: "approved" });
  expect(inbox).toMatchObject({ status: "pending", needed: "1 of 2 admins still needed" });
  const again = await vote(wait.id, people.ada!.key, "approved");
  expect(again.status).toBe(409);
  expect(again.body.error.message).toMatch(/^You already approved this at .+; each person votes once\.$/);
  const votes = await getDb().select().from(approvalVotes).where(eq(approvalVotes.waitId, wait.id));
  expect(votes).toHaveLength(1);
  expect((await runInStatus(run.id, ["waiting"])).status).toBe("waiting");
  expect((await vote(wait.id, people.bea!.key)).body.status).toBe("approved");
});

test("taking members out until the quorum is impossible rejects at once, with the reason; leaving the shop within a reminder tick", async () => {
  const team = await call<Team & ErrorReply>(createTeamRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Warehouse", members: [people.fin!.email, people.fay!.email, people.eve!.email] },
  });
  expect(team.status).toBe(201);
  const { run, wait } = await waitingRun(
    "Warehouse two",
    { approvers: [{ team: team.body.id, required: 2 }] },
    "q-7",
  );
  expect((await vote(wait.id, people.fin!.key)).body.needed).toBe("1 of 2 from Warehouse still needed");
  // Fay out: Eve could still vote.
  const fewer = await call<Team>(updateTeamRoute, {
    method: "PUT",
    key: shop.keys.admin,
    params: { id: team.body.id },
    body: { members: [people.fin!.email, people.eve!.email] },
  });
  expect(fewer.status).toBe(200);
  expect((await viewOf(wait.id)).status).toBe("pending");
  // A removed member's unused vote is gone at once.
  const fay = await vote(wait.id, people.fay!.key);
  expect(fay.status).toBe(403);
  // Eve out: nobody is left to give the second vote.
  const none = await call<Team>(updateTeamRoute, {
    method: "PUT",
    key: shop.keys.admin,
    params: { id: team.body.id },
    body: { members: [people.fin!.email] },
  });
  expect(none.status).toBe(200);
  const view = await viewOf(wait.id);
  expect(view).toMatchObject({
    status: "rejected",
    decidedBy: "Tillflow",
    reason: "can no longer be approved",
  });
  expect(view.note).toMatch(/can no longer be approved/);
  await runInStatus(run.id, ["succeeded"]);
  expect((await stepsOf(run.id)).map((s) => s.nodeId)).toEqual(["review", "no"]);
  const audit = await getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, shop.tenant.id), eq(auditEvents.subjectId, team.body.id)));
  expect(audit.map((a) => a.action)).toEqual(["team.created", "team.updated", "team.updated"]);

  // Someone leaves the shop behind the app's back (their membership and teams go): the next
  // every-minute tick of the reminder task finds the approval impossible.
  const solo = await call<Team>(createTeamRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Solo", members: [people.eve!.email] },
  });
  const later = await waitingRun("Solo", { approvers: [{ team: solo.body.id, required: 1 }] }, "q-8");
  await getDb()
    .delete(memberships)
    .where(and(eq(memberships.tenantId, shop.tenant.id), eq(memberships.userId, people.eve!.userId)));
  expect((await viewOf(later.wait.id)).status).toBe("pending");
  await approvalRemind({}, { logger: { info: () => {} } } as unknown as Parameters<typeof approvalRemind>[1]);
  expect(await viewOf(later.wait.id)).toMatchObject({
    status: "rejected",
    reason: "can no longer be approved",
  });
  await runInStatus(later.run.id, ["succeeded"]);
  expect((await stepsOf(later.run.id)).map((s) => s.nodeId)).toEqual(["review", "no"]);
}, 90_000); // two flows published and run to the end, on a machine others build on

test("teams: anyone reads them, only admins change them; bad input is a plain 4xx", async () => {
  const list = await call<{ items: Team[] }>(listTeamsRoute, { key: shop.keys.viewer });
  expect(list.status).toBe(200);
  expect(
    list.body.items
      .find((t) => t.name === "Finance")!
      .members.map((m) => m.email)
      .sort(),
  ).toEqual([people.fay!.email, people.fin!.email].sort());
  const editor = await call<ErrorReply>(createTeamRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: { name: "Nope" },
  });
  expect(editor.status).toBe(403);
  const twice = await call<ErrorReply>(createTeamRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "finance" },
  });
  expect(twice.status).toBe(409);
  expect(twice.body.error.message).toBe("A team named 'finance' already exists in this shop.");
  const stranger = await call<ErrorReply>(createTeamRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Strangers", members: ["nobody@example.com"] },
  });
  expect(stranger.status).toBe(422);
  expect(stranger.body.error.message).toMatch(/^nobody@example.com is not a member of this shop/);
  const made = await call<Team>(createTeamRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Temp" },
  });
  expect(
    (await call(deleteTeamRoute, { method: "DELETE", key: shop.keys.editor, params: { id: made.body.id } }))
      .status,
  ).toBe(403);
  expect(
    (await call(deleteTeamRoute, { method: "DELETE", key: shop.keys.admin, params: { id: made.body.id } }))
      .status,
  ).toBe(200);
  expect(
    (await call(deleteTeamRoute, { method: "DELETE", key: shop.keys.admin, params: { id: made.body.id } }))
      .status,
  ).toBe(404);
});
