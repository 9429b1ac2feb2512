import fs from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { GET as listRoute } from "@/app/api/v1/approvals/route";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { auditSentence } from "@/lib/audit/words";
import { addMember } from "@/lib/auth/users";
import { getRun } from "@/lib/automations/runs/detail";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import { dueApprovalsSql, sendApprovalFollowUps } from "@/lib/automations/waits/reminders";
import { getDb } from "@/lib/db/client";
import { auditEvents, automationRuns, automationRunWaits, outboxEmails } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { runInStatus, until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

// Approval reminders and escalation (issue 28 item 2): an approval nobody decides reminds its
// approvers once after `remindAfterHours`, then tells the admins once after `escalateAfterHours`,
// through the worker's `approval_remind` task. Time travels by the function's injected `now`, or
// by moving the wait's `created_at` back in SQL for the real worker's run of the task.

let shop: TestShop;
const HOUR = 3_600_000;

beforeAll(async () => {
  shop = await createShop();
  // The shop's zone, so the emails' times can be checked as the merchant reads them.
  await getDb().execute(sql`update tenants set timezone = 'Europe/Paris' where id = ${shop.tenant.id}`);
  for (const [name, role] of [
    ["boss", "admin"],
    ["ed", "editor"],
    ["vi", "viewer"],
  ] as const)
    await addMember(shop.tenant.id, {
      email: `${name}-${shop.tenant.slug}@demo.test`,
      name,
      role,
      password: "tillflow-demo",
    });
});
const worker = workerForFile();

const boss = () => `boss-${shop.tenant.slug}@demo.test`;
const ed = () => `ed-${shop.tenant.slug}@demo.test`;

//  order_paid ──▶ review (approval, remind after 1 h, admins after 2 h) ──approved──▶ tag(reviewed)
//                                                                     └─timed_out─▶ tag(unreviewed)
const reviewFlow = (params: Record<string, unknown> = {}) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      {
        id: "review",
        type: "auto.control.approval",
        params: {
          title: "Review order {entity.number}",
          timeoutHours: 72,
          approverRole: "editor",
          remindAfterHours: 1,
          escalateAfterHours: 2,
          ...params,
        },
      },
      { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
      { id: "late", type: "auto.action.add_tag", params: { tag: "unreviewed" } },
    ],
    [
      ["t", "review"],
      ["review", "ok", "approved"],
      ["review", "late", "timed_out"],
    ],
  );

async function paidOrder(id: string) {
  for (const status of ["pending", "paid"])
    await upsertEntity(
      shop.tenant.id,
      "order",
      id,
      { number: `#${id}`, status, total: 1500, currency: "EUR" },
      "test",
    );
}

/** The pending approval of the run for order `entityId` of `automationId`, once the run waits there. */
async function approvalFor(automationId: string, entityId: string) {
  const [run] = await until(
    () =>
      getDb()
        .select()
        .from(automationRuns)
        .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId))),
    (runs) => runs.length === 1,
    { timeoutMs: 15_000, what: `the run for ${entityId}` },
  );
  await runInStatus(run!.id, ["waiting"]);
  const [wait] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, run!.id), eq(automationRunWaits.kind, "approval")));
  return wait!;
}

const waitRow = async (id: string) =>
  (await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, id)))[0]!;
const emailsOf = (runId: string) =>
  getDb().select().from(outboxEmails).where(eq(outboxEmails.runId, runId)).orderBy(outboxEmails.createdAt);
const auditOf = (waitId: string) =>
  getDb()
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.subjectId, waitId),
        inArray(auditEvents.action, ["approval.reminded", "approval.escalated"]),
      ),
    );
const after = (from: Date, hours: number) => new Date(from.getTime() + hours * HOUR);

describe("approval reminders and escalation", () => {
  test("the real worker's task reminds the approvers once, even when it runs again", async () => {
    const id = await publishFlow(shop.keys.editor, "Hold big orders", reviewFlow());
    await paidOrder("w-1");
    const wait = await approvalFor(id, "w-1");
    expect((await emailsOf(wait.runId)).map((e) => e.subject)).toEqual([
      "Approval needed: Review order #w-1",
      "Approval needed: Review order #w-1",
    ]);

    // Not yet due: the task finds nothing.
    await enqueueJobs(getDb(), [{ task: "approval_remind", payload: {} }]);
    await until(
      () =>
        getDb().execute(sql`select 1 from graphile_worker.jobs where task_identifier = 'approval_remind'`),
      (jobs) => jobs.length === 0,
      { timeoutMs: 15_000, what: "the first approval_remind job to finish" },
    );
    expect((await waitRow(wait.id)).remindedAt).toBeNull();

    // Asked 61 minutes ago: due for its reminder, not yet for the admins.
    await getDb().execute(
      sql`update automation_run_waits set created_at = now() - interval '61 minutes' where id = ${wait.id}`,
    );
    await enqueueJobs(getDb(), [{ task: "approval_remind", payload: {} }]);
    const reminded = await until(
      () => waitRow(wait.id),
      (row) => row.remindedAt !== null,
      { timeoutMs: 15_000, what: "the approval to be reminded" },
    );
    expect(reminded.escalatedAt).toBeNull();
    for (let i = 0; i < 2; i++) await enqueueJobs(getDb(), [{ task: "approval_remind", payload: {} }]);
    await until(
      () =>
        getDb().execute(sql`select 1 from graphile_worker.jobs where task_identifier = 'approval_remind'`),
      (jobs) => jobs.length === 0,
      { timeoutMs: 15_000, what: "the approval_remind jobs to finish" },
    );

    const reminders = (await emailsOf(wait.runId)).filter((e) => e.subject.startsWith("Reminder"));
    expect(reminders.map((e) => e.to).sort()).toEqual([boss(), ed()]);
    expect((await waitRow(wait.id)).remindedAt).toEqual(reminded.remindedAt);
    expect((await auditOf(wait.id)).map((a) => [a.action, a.actor])).toEqual([
      ["approval.reminded", "Tillflow"],
    ]);
    // The Approvals inbox (GET /api/v1/approvals) says when.
    const inbox = await call<{ items: ApprovalView[] }>(listRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/approvals?status=pending",
    });
    expect(inbox.body.items.find((a) => a.waitId === wait.id)).toMatchObject({
      status: "pending",
      remindedAt: reminded.remindedAt!.toISOString(),
      escalatedAt: null,
    });
  });

  test("an approval reminds its approvers after remindAfterHours, then tells the admins after escalateAfterHours, each exactly once", async () => {
    const id = await publishFlow(shop.keys.editor, "Big order review", reviewFlow());
    await paidOrder("r-1");
    const wait = await approvalFor(id, "r-1");
    const asked = wait.createdAt;

    // Before the reminder is due, nothing is sent.
    await sendApprovalFollowUps({ now: after(asked, 0.9) });
    expect((await waitRow(wait.id)).remindedAt).toBeNull();

    // After an hour: the approvers (editors and admins, not the viewer) are reminded, once.
    await sendApprovalFollowUps({ now: after(asked, 1.1) });
    await sendApprovalFollowUps({ now: after(asked, 1.2) });
    const reminded = await waitRow(wait.id);
    expect(reminded.remindedAt).toEqual(after(asked, 1.1));
    expect(reminded.escalatedAt).toBeNull();
    let emails = await emailsOf(wait.runId);
    const reminders = emails.filter((e) => e.subject === "Reminder: approval needed: Review order #r-1");
    expect(reminders.map((e) => e.to).sort()).toEqual([boss(), ed()]);
    const reminder = reminders[0]!.bodyHtml;
    expect(reminder).toContain("'Big order review' is still waiting for your decision");
    expect(reminder).toContain("Review order #r-1");
    expect(reminder).toContain(`/approvals?wait=${wait.id}"`);
    // Times in the shop's zone, in words; never an ISO time.
    expect(reminder).toMatch(/It times out on \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} (CET|CEST|GMT\+\d)/);
    expect(reminder).not.toMatch(/\d{4}-\d{2}-\d{2}T/);

    // After two hours: the admins alone are told, once, however often the task runs.
    await sendApprovalFollowUps({ now: after(asked, 2.1) });
    await sendApprovalFollowUps({ now: after(asked, 2.5) });
    const escalated = await waitRow(wait.id);
    expect(escalated.escalatedAt).toEqual(after(asked, 2.1));
    expect(escalated.remindedAt).toEqual(after(asked, 1.1));
    emails = await emailsOf(wait.runId);
    const escalations = emails.filter((e) => e.subject === "Nobody has decided: Review order #r-1");
    expect(escalations.map((e) => e.to)).toEqual([boss()]);
    expect(escalations[0]!.bodyHtml).toContain("in 'Big order review' since it was asked on");
    expect(escalations[0]!.bodyHtml).toContain("The approvers were reminded on");
    expect(escalations[0]!.bodyHtml).toContain(`/approvals?wait=${wait.id}"`);
    // Two asks, two reminders, one escalation: nothing more.
    expect(emails).toHaveLength(5);
    // The shop's Activity says both happened, in words.
    expect((await auditOf(wait.id)).map((a) => auditSentence(a, "Big order review")).sort()).toEqual([
      "Tillflow reminded the approvers of 'Big order review': nobody had decided 'Review order #r-1' yet",
      "Tillflow told the admins that nobody had decided 'Review order #r-1' in 'Big order review'",
    ]);
    // The run's page says when each was sent.
    const detail = await getRun(shop.tenant.id, wait.runId);
    expect(detail.waits.find((w) => w.id === wait.id)?.approval).toMatchObject({
      state: "pending",
      remindedAt: after(asked, 1.1).toISOString(),
      escalatedAt: after(asked, 2.1).toISOString(),
    });
    // Still waiting for a decision: the follow-ups do not decide or move the run.
    expect(escalated).toMatchObject({ status: "pending", decision: null, resumeAt: wait.resumeAt });
  });

  test("a tick that dies before its commit sends nothing, and the next sends the reminder once", async () => {
    const id = await publishFlow(shop.keys.editor, "Crashy review", reviewFlow());
    await paidOrder("c-1");
    const wait = await approvalFor(id, "c-1");
    // The database fails the tick at its last write (the audit entry), after the claim and the
    // emails: as a worker killed mid-transaction, nothing of it may be left.
    await getDb().execute(sql`
      create function fail_reminder_audit() returns trigger language plpgsql as $$
      begin raise exception 'the worker died here'; end $$`);
    await getDb().execute(sql`
      create trigger fail_reminder_audit before insert on audit_events
      for each row when (new.action = 'approval.reminded') execute function fail_reminder_audit()`);
    try {
      await expect(sendApprovalFollowUps({ now: after(wait.createdAt, 1.5) })).rejects.toThrow();
    } finally {
      await getDb().execute(sql`drop trigger fail_reminder_audit on audit_events`);
      await getDb().execute(sql`drop function fail_reminder_audit()`);
    }
    expect((await waitRow(wait.id)).remindedAt).toBeNull();
    expect((await emailsOf(wait.runId)).filter((e) => e.subject.startsWith("Reminder"))).toEqual([]);

    await sendApprovalFollowUps({ now: after(wait.createdAt, 1.5) });
    await sendApprovalFollowUps({ now: after(wait.createdAt, 1.6) });
    expect((await emailsOf(wait.runId)).filter((e) => e.subject.startsWith("Reminder"))).toHaveLength(2);
    expect((await waitRow(wait.id)).remindedAt).toEqual(after(wait.createdAt, 1.5));
  });

  test("an approval decided while its run has not resumed yet is never reminded", async () => {
    const id = await publishFlow(shop.keys.editor, "Quick review", reviewFlow());
    await paidOrder("q-1");
    const wait = await approvalFor(id, "q-1");
    // With the worker stopped, the decision is recorded but the run stays at the approval.
    await worker.stop();
    try {
      const reply = await call<ErrorReply>(decideRoute, {
        method: "POST",
        key: shop.keys.admin,
        params: { waitId: wait.id },
        body: { decision: "rejected" },
      });
      expect(reply.status).toBe(200);
      expect(await waitRow(wait.id)).toMatchObject({ status: "pending", decision: "rejected" });
      await sendApprovalFollowUps({ now: after(wait.createdAt, 2.5) });
      expect(await waitRow(wait.id)).toMatchObject({ remindedAt: null, escalatedAt: null });
      expect(await auditOf(wait.id)).toEqual([]);
    } finally {
      await worker.start();
    }
  });

  test("due approvals are found through the partial index of pending approvals", async () => {
    const plans = await getDb().transaction(async (tx) => {
      // Only whether the index can serve the query is asked: a test database is too small for the
      // planner to prefer it by cost, so sequential scans are priced out for this transaction.
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = async (kind: "remind" | "escalate") =>
        JSON.stringify(await tx.execute(sql`explain (format json) ${dueApprovalsSql(kind, new Date())}`));
      return [await plan("remind"), await plan("escalate")];
    });
    for (const plan of plans) expect(plan).toContain("automation_run_waits_pending_approvals_idx");
  });

  test("a decided approval, or one past its time-out, is never reminded", async () => {
    const id = await publishFlow(shop.keys.editor, "Decided review", reviewFlow());
    await paidOrder("d-1");
    const decided = await approvalFor(id, "d-1");
    const reply = await call<ErrorReply>(decideRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { waitId: decided.id },
      body: { decision: "approved" },
    });
    expect(reply.status).toBe(200);
    await sendApprovalFollowUps({ now: after(decided.createdAt, 2.5) });
    expect(await waitRow(decided.id)).toMatchObject({ remindedAt: null, escalatedAt: null });
    expect((await emailsOf(decided.runId)).filter((e) => !e.subject.startsWith("Approval needed"))).toEqual(
      [],
    );

    // Undecided but past its time-out (its job has not fired yet): it follows 'Timed out', unreminded.
    await paidOrder("d-2");
    const late = await approvalFor(id, "d-2");
    await sendApprovalFollowUps({ now: after(late.createdAt, 73) });
    expect(await waitRow(late.id)).toMatchObject({ status: "pending", remindedAt: null, escalatedAt: null });
    expect(await auditOf(late.id)).toEqual([]);
  });

  test("an approval without follow-ups set is never reminded", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Plain review",
      reviewFlow({ remindAfterHours: undefined, escalateAfterHours: undefined }),
    );
    await paidOrder("p-1");
    const wait = await approvalFor(id, "p-1");
    await sendApprovalFollowUps({ now: after(wait.createdAt, 71) });
    expect(await waitRow(wait.id)).toMatchObject({ remindedAt: null, escalatedAt: null });
  });

  test("a paused automation's approvals are not followed up until it is active again", async () => {
    const id = await publishFlow(shop.keys.editor, "Paused review", reviewFlow());
    await paidOrder("z-1");
    const wait = await approvalFor(id, "z-1");
    // The status alone, set in SQL: what pausing does to waiting runs is the pause's own business.
    await getDb().execute(sql`update automations set status = 'paused' where id = ${id}`);
    await sendApprovalFollowUps({ now: after(wait.createdAt, 1.5) });
    expect((await waitRow(wait.id)).remindedAt).toBeNull();
    await getDb().execute(sql`update automations set status = 'active' where id = ${id}`);
    await sendApprovalFollowUps({ now: after(wait.createdAt, 1.5) });
    expect((await waitRow(wait.id)).remindedAt).toEqual(after(wait.createdAt, 1.5));
  });

  test("a reminder at or after the time-out is refused with a sentence naming the step", async () => {
    const created = await call<{ id: string }>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Too late", graph: reviewFlow({ timeoutHours: 24, remindAfterHours: 24 }) },
    });
    expect(created.status).toBe(201);
    const published = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
    });
    expect(published.status).toBe(422);
    expect(JSON.stringify(published.body)).toContain(
      "Approval: remindAfterHours must be less than the time-out (24 hours), or the reminder would come after the run has moved on.",
    );
  });

  test("a GET of the emailed link decides nothing: it is a page, and the decision takes a POST", async () => {
    const id = await publishFlow(shop.keys.editor, "Scanned review", reviewFlow());
    await paidOrder("g-1");
    const wait = await approvalFor(id, "g-1");
    await sendApprovalFollowUps({ now: after(wait.createdAt, 1.5) });
    const links = (await emailsOf(wait.runId)).map((e) => /href="([^"]+)"/.exec(e.bodyHtml)?.[1]);
    expect(links).toHaveLength(4);
    const link = new URL(links[0]!.replaceAll("&amp;", "&"));
    for (const other of links) expect(other).toBe(links[0]);
    // The Approvals inbox with this approval marked: a page, with no decision in the address.
    expect(link.pathname).toBe("/approvals");
    expect([...link.searchParams.keys()]).toEqual(["wait"]);
    expect(link.searchParams.get("wait")).toBe(wait.id);

    const { routeHandlers } = await import("@/tests/helpers/route-handlers");
    const handlers = await routeHandlers();
    // The approval's API route decides on POST and has no GET at all.
    expect(handlers.has("POST /api/v1/approvals/{waitId}")).toBe(true);
    expect(handlers.has("GET /api/v1/approvals/{waitId}")).toBe(false);
    // A scanner following the link as the API, and reading what the page reads, changes nothing.
    const before = await waitRow(wait.id);
    const jobBefore = await getDb().execute(
      sql`select run_at from graphile_worker.jobs where key = ${wait.id}`,
    );
    for (const key of [undefined, shop.keys.admin]) {
      const list = await call(handlers.get("GET /api/v1/approvals")!, {
        key,
        path: `/api/v1/approvals${link.search}`,
      });
      expect([200, 401]).toContain(list.status);
    }
    const { findApproval } = await import("@/lib/automations/waits/approval-reads");
    expect(await findApproval(shop.tenant.id, wait.id)).not.toBeNull();
    expect(await waitRow(wait.id)).toEqual(before);
    expect(
      await getDb().execute(sql`select run_at from graphile_worker.jobs where key = ${wait.id}`),
    ).toEqual(jobBefore);
    const run = (await getDb().select().from(automationRuns).where(eq(automationRuns.id, wait.runId)))[0]!;
    expect(run.status).toBe("waiting");

    // Nothing a GET reaches can decide: the code that decides is called only from the approval's
    // POST route, the decision box's server action (a POST), and the MCP server (JSON-RPC over POST).
    const root = path.resolve(import.meta.dirname, "../..");
    const deciders = ["app", "components", "lib", "server", "worker"]
      .flatMap((dir) =>
        fs
          .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
          .filter((d) => d.isFile() && /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name))
          .map((d) => path.relative(root, path.join(d.parentPath, d.name))),
      )
      // A screen calls the action through useServerAction(decideApprovalAction).
      .filter((file) =>
        /\bdecideApproval(Action)?\(|useServerAction\(decideApprovalAction\)/.test(
          fs.readFileSync(path.join(root, file), "utf8"),
        ),
      )
      .sort();
    expect(deciders).toEqual([
      "app/api/v1/approvals/[waitId]/route.ts",
      "components/approvals/decision-box.tsx",
      "lib/actions/approvals/decide-approval.ts",
      "lib/automations/waits/approvals.ts", // where it is defined
      "lib/mcp/server.ts",
    ]);

    // Only the button's POST decides.
    const decided = await call<ErrorReply>(decideRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { waitId: wait.id },
      body: { decision: "approved" },
    });
    expect(decided.status).toBe(200);
    // The file's worker resumes the run on the decided out.
    expect((await runInStatus(wait.runId, ["succeeded", "failed", "partial"])).status).toBe("succeeded");
  });
});
