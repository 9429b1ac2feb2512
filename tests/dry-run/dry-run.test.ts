import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { executeRun } from "@/lib/automations/engine/pipeline";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { entityOptions } from "@/lib/entities/options";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { formatInZone } from "@/lib/time/cron";

let shop: TestShop;
let other: TestShop;

//  t (order_paid) ──▶ big (total > 100) ──true──▶ tag (add_tag big-{entity.currency}) ──▶ note ──▶ wait (2 days) ──▶ mail
//                                      └─false─▶ small (add_tag small)
const graph = flow(
  [
    { id: "t", type: "auto.trigger.order_paid" },
    { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "big-{entity.currency}" } },
    { id: "small", type: "auto.action.add_tag", params: { tag: "small" } },
    {
      id: "note",
      type: "auto.action.add_note",
      params: { body: "Order {entity.number} is {entity.status}" },
    },
    { id: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject: "About {entity.number}", body: "Status now: {entity.status}" },
    },
  ],
  [
    ["t", "big"],
    ["big", "tag", "true"],
    ["big", "small", "false"],
    ["tag", "note"],
    ["note", "wait"],
    ["wait", "mail"],
  ],
);

async function createDraft(key: string, body: unknown = graph): Promise<string> {
  const created = await call<{ id: string }>(createRoute, {
    method: "POST",
    key,
    body: { name: "Big orders", graph: body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function tryIt<B = DryRunResult>(key: string, id: string, body?: unknown) {
  return call<B>(dryRunRoute, { method: "POST", key, params: { id }, body });
}

/** Rows of every table a run could write to, and the state of the shop's records. */
async function footprint() {
  const [row] = await getDb().execute<Record<string, string>>(sql`
    select
      (select count(*) from automation_runs)::text as runs,
      (select count(*) from automation_run_steps)::text as steps,
      (select count(*) from automation_run_waits)::text as waits,
      (select count(*) from action_deliveries)::text as deliveries,
      (select count(*) from outbox_emails)::text as outbox,
      (select count(*) from staff_tasks)::text as tasks,
      (select count(*) from entity_notes)::text as notes,
      (select count(*) from events)::text as events,
      (select count(*) from graphile_worker.jobs)::text as jobs,
      (select string_agg(id || ':' || array_to_string(tags, ',') || ':' || updated_at::text, '|' order by id) from entities) as entities,
      (select string_agg(id || ':' || draft_revision::text || ':' || updated_at::text, '|' order by id) from automations) as automations`);
  return row!;
}

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await upsertEntity(
    shop.tenant.id,
    "order",
    "o-1001",
    {
      number: "#1001",
      status: "pending",
      total: 150,
      currency: "EUR",
      email: "ada@example.com",
      tags: ["big-EUR"],
    },
    "test",
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "o-1002",
    { number: "1002", status: "paid", total: 20, currency: "EUR" },
    "test",
  );
});

describe("dry run", () => {
  test("walks the path through the condition, fills templates like a run, and continues past a wait as leg 2", async () => {
    const id = await createDraft(shop.keys.editor);
    const before = await footprint();
    const started = Date.now();
    const res = await tryIt(shop.keys.viewer, id, { entityId: "o-1001" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { steps, path, entity, notes } = res.body;

    expect(entity).toEqual({
      domain: "order",
      id: "o-1001",
      label: "Order #1001 · ada@example.com · €150.00 · pending",
    });
    expect(steps.map((s) => [s.nodeId, s.leg, s.kind, s.outcome])).toEqual([
      ["t", 1, "trigger", "started"],
      ["big", 1, "condition", "true"],
      ["tag", 1, "action", "would_run"],
      ["note", 1, "action", "would_run"],
      ["wait", 1, "wait", "would_wait"],
      ["mail", 2, "action", "would_run"],
    ]);
    expect(path).toEqual({
      nodeIds: ["t", "big", "tag", "note", "wait", "mail"],
      edgeIds: ["e0", "e1", "e3", "e4", "e5"],
    });

    const byId = Object.fromEntries(steps.map((s) => [s.nodeId, s]));
    expect(byId.big!.detail).toEqual(["Total is 150, more than 100, so it follows 'True'."]);
    expect(byId.tag!.resolvedParams).toEqual({ tag: "big-EUR" });
    expect(byId.tag!.detail).toEqual([
      "Would add tag 'big-EUR' to order #1001; it already has it, so nothing would change.",
    ]);
    // The first leg sees the status the order.paid event fires for, as a run would.
    expect(byId.note!.resolvedParams).toEqual({ body: "Order #1001 is paid" });
    expect(byId.note!.detail).toEqual(["Would add a note to order #1001: “Order #1001 is paid”"]);

    const resumeAt = new Date(byId.wait!.resumeAt!).getTime();
    expect(resumeAt).toBeGreaterThanOrEqual(started + 2 * 86_400_000);
    expect(resumeAt).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000);
    expect(byId.wait!.detail).toEqual([
      // In the shop's zone, as words: "Fri, 4 Dec 2026, 10:00 CET", never an ISO time.
      expect.stringMatching(/^Would wait until \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+, in 2 days\.$/),
      "Then the flow carries on from here, the second part of the run.",
    ]);

    // After the wait the run reads the order as it is then (no status pin): pending today.
    expect(byId.mail!.resolvedParams).toEqual({
      to: "ada@example.com",
      subject: "About #1001",
      body: "Status now: pending",
    });
    expect(byId.mail!.detail[0]).toBe("Would email ada@example.com: subject 'About #1001'");
    expect(notes).toContain(
      "When a wait ends, the real run reads the order again, so the steps after it see the order as it is then; this dry run shows it as it is now.",
    );
    expect(notes.some((n) => n.includes("taken as 'paid'"))).toBe(true);

    expect(await footprint()).toEqual(before);
  });

  test("the editor's unsaved graph is tried instead of the draft; the other branch and failures show", async () => {
    const id = await createDraft(shop.keys.editor);
    const unsaved = structuredClone(graph);
    unsaved.nodes.find((n) => n.id === "small")!.params = { tag: "small-{entity.number}" };
    const before = await footprint();
    const res = await tryIt(shop.keys.editor, id, { entityId: "o-1002", graph: unsaved });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.steps.map((s) => [s.nodeId, s.outcome])).toEqual([
      ["t", "started"],
      ["big", "false"],
      ["small", "would_run"],
    ]);
    expect(res.body.steps[2]!.resolvedParams).toEqual({ tag: "small-1002" });
    expect(res.body.path.edgeIds).toEqual(["e0", "e2"]);

    // An order without an email: the email step would fail, as the executor would fail it.
    const noMail = flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "mail", type: "auto.action.send_email", params: { subject: "Hi", body: "Thanks" } },
      ],
      [["t", "mail"]],
    );
    const failed = await tryIt(shop.keys.editor, id, { entityId: "o-1002", graph: noMail });
    expect(failed.status).toBe(200);
    expect(failed.body.steps[1]).toMatchObject({
      outcome: "error",
      error: "The recipient came out empty (does the record have an email?).",
    });
    expect(await footprint()).toEqual(before);
  });

  test("without a record, the pasted payload is the event's payload", async () => {
    const hook = flow(
      [
        { id: "t", type: "auto.trigger.webhook", params: { token: "tok_dry_run_1234567" } },
        {
          id: "call",
          type: "auto.action.http_request",
          params: {
            url: "https://example.com/hook/{event.payload.body.id}",
            headers: { Authorization: "Bearer secret", "X-Shop": "{event.payload.body.shop}" },
            body: '{"total": {event.payload.body.total}}',
          },
        },
        { id: "wait", type: "auto.control.wait_until", params: { time: "09:00", timezone: "UTC" } },
        {
          id: "task",
          type: "auto.action.create_task",
          params: { title: "Check {event.payload.body.id}", dueIn: "1d" },
        },
      ],
      [
        ["t", "call"],
        ["call", "wait"],
        ["wait", "task"],
      ],
    );
    const id = await createDraft(shop.keys.editor, hook);
    const res = await tryIt(shop.keys.viewer, id, {
      payload: { body: { id: "x-9", shop: "demo", total: 12 } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.entity).toBeNull();
    const [, call, wait, task] = res.body.steps;
    expect(call).toMatchObject({
      outcome: "would_run",
      resolvedParams: {
        url: "https://example.com/hook/x-9",
        method: "POST",
        // The plain Authorization header became a credential when the draft was saved.
        headers: { "X-Shop": "demo" },
        auth: { credentialId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
        body: '{"total": 12}',
      },
    });
    expect(call!.detail[0]).toBe(
      "Would send POST https://example.com/hook/x-9, with its credential's headers and an Idempotency-Key header.",
    );
    const resumeAt = new Date(wait!.resumeAt!);
    expect(resumeAt.getUTCHours()).toBe(9);
    expect(resumeAt.getUTCMinutes()).toBe(0);
    // The task after the wait is created at wake time, so its due date counts from then.
    expect(task).toMatchObject({
      leg: 2,
      outcome: "would_run",
      resolvedParams: { title: "Check x-9", dueIn: "1d" },
    });
    expect(task!.detail[0]).toBe(
      // The due time in the shop's zone (this shop's is UTC), as words.
      `Would create the task 'Check x-9', due ${formatInZone(new Date(resumeAt.getTime() + 86_400_000), "UTC")}.`,
    );
  });

  test("parallel waits: legs are numbered in the order the waits come due, each from its own time", async () => {
    //  t ──▶ slow (wait 1 day) ──▶ a (add_tag slow)
    //    └─▶ fast (wait 1 hour) ──▶ b (add_tag fast) ──▶ c (add_note "{steps.b.tag}")
    const parallel = flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "slow", type: "auto.control.wait", params: { duration: 1, unit: "days" } },
        { id: "fast", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
        { id: "a", type: "auto.action.add_tag", params: { tag: "slow" } },
        { id: "b", type: "auto.action.add_tag", params: { tag: "fast" } },
        { id: "c", type: "auto.action.add_note", params: { body: "Tagged '{steps.b.tag}'" } },
      ],
      [
        ["t", "slow"],
        ["t", "fast"],
        ["slow", "a"],
        ["fast", "b"],
        ["b", "c"],
      ],
    );
    const id = await createDraft(shop.keys.editor, parallel);
    const res = await tryIt(shop.keys.viewer, id, { entityId: "o-1001" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.steps.map((s) => [s.nodeId, s.leg, s.outcome])).toEqual([
      ["t", 1, "started"],
      ["slow", 1, "would_wait"],
      ["fast", 1, "would_wait"],
      ["b", 2, "would_run"],
      ["c", 2, "would_run"],
      ["a", 3, "would_run"],
    ]);
    expect(res.body.steps[1]!.detail.at(-1)).toBe(
      "Then the flow carries on from here, the third part of the run.",
    );
    expect(res.body.steps[2]!.detail.at(-1)).toBe(
      "Then the flow carries on from here, the second part of the run.",
    );
    expect(res.body.path.edgeIds).toEqual(["e0", "e1", "e3", "e4", "e2"]);
    // An action's output only exists in a real run.
    expect(res.body.steps[4]!.resolvedParams).toEqual({ body: "Tagged ''" });
    expect(res.body.notes).toContain(
      "Outputs of earlier actions ({steps.…}) only exist in a real run, so they come out empty here.",
    );
  });

  test("another shop's automation is not found", async () => {
    const id = await createDraft(shop.keys.editor);
    const res = await tryIt<ErrorReply>(other.keys.admin, id, { entityId: "o-1001" });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("That automation was not found.");
    expect((await tryIt<ErrorReply>(shop.keys.viewer, "not-a-uuid", {})).status).toBe(404);
  });

  test("a record of another shop, or one that does not exist, is not found", async () => {
    const id = await createDraft(shop.keys.editor);
    const missing = await tryIt<ErrorReply>(shop.keys.viewer, id, { entityId: "nope" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("The order 'nope' was not found.");
    const otherId = await createDraft(other.keys.editor);
    const foreign = await tryIt<ErrorReply>(other.keys.viewer, otherId, { entityId: "o-1001" });
    expect(foreign.status).toBe(404);
  });

  test("an approval waits for a decision that a dry run cannot know, then follows 'Timed out'", async () => {
    //  t (order_paid) ──▶ review (approval 72 h) ──approved──▶ ok (add_tag reviewed)
    //                                           ├─rejected──▶ no (add_note)
    //                                           └─timed_out─▶ late (create_task)
    const review = flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "review",
          type: "auto.control.approval",
          params: { title: "Review order {entity.number}", timeoutHours: 72, approverRole: "editor" },
        },
        { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
        { id: "no", type: "auto.action.add_note", params: { body: "Rejected in review" } },
        { id: "late", type: "auto.action.create_task", params: { title: "Nobody reviewed {entity.number}" } },
      ],
      [
        ["t", "review"],
        ["review", "ok", "approved"],
        ["review", "no", "rejected"],
        ["review", "late", "timed_out"],
      ],
    );
    const id = await createDraft(shop.keys.editor, review);
    const before = await footprint();
    const res = await tryIt(shop.keys.viewer, id, { entityId: "o-1001" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.steps.map((s) => [s.nodeId, s.leg, s.outcome])).toEqual([
      ["t", 1, "started"],
      ["review", 1, "would_wait"],
      ["late", 2, "would_run"],
    ]);
    const wait = res.body.steps[1]!;
    expect(wait.detail).toEqual([
      "Would wait for a decision ('Review order #1001'), timing out after 72 h, then follow 'Timed out'.",
      "Then the flow carries on from here, the second part of the run.",
    ]);
    expect(new Date(wait.resumeAt!).getTime() - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(res.body.path.edgeIds).toEqual(["e0", "e3"]);
    expect(res.body.notes).toContain(
      "A dry run cannot know what someone will decide, so after an approval it follows 'Timed out'; in a real run an approval or a rejection follows 'Approved' or 'Rejected'.",
    );
    // Nobody was asked: no wait, no email to approvers.
    expect(await footprint()).toEqual(before);
  });

  test("a graph that is not ready is refused with its ready issues", async () => {
    const id = await createDraft(shop.keys.editor);
    const broken = flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        { id: "wait", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
      ],
      [["t", "wait"]],
    );
    const res = await tryIt<ErrorReply>(shop.keys.viewer, id, { graph: broken });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("Fix this flow before trying it: This wait leads nowhere.");
    expect(res.body.error.issues).toEqual([{ nodeId: "wait", message: "This wait leads nowhere." }]);
    const unknownField = await tryIt<ErrorReply>(shop.keys.viewer, id, { entity: "o-1001" });
    expect(unknownField.status).toBe(422);
  });
});

//  t (order_fulfilled) ─┬─▶ mail (to {entity.email})
//                       └─▶ label (add_tag {entity.email})
test("a failure reads the same in a real run and in a dry run", async () => {
  const mine = await createShop();
  const failing = flow(
    [
      { id: "t", type: "auto.trigger.order_fulfilled" },
      {
        id: "mail",
        type: "auto.action.send_email",
        params: { to: "{entity.email}", subject: "Hi", body: "Hi", purpose: "transactional" },
      },
      { id: "label", type: "auto.action.add_tag", params: { tag: "{entity.email}" } },
    ],
    [
      ["t", "mail"],
      ["t", "label"],
    ],
  );
  const id = await publishFlow(mine.keys.editor, "No email", failing);
  // Order 1003 has no email: both steps fail when their templates are filled in.
  await upsertEntity(
    mine.tenant.id,
    "order",
    "o-1003",
    { number: "1003", status: "paid", total: 5, currency: "EUR" },
    "test",
  );
  await upsertEntity(
    mine.tenant.id,
    "order",
    "o-1003",
    { number: "1003", status: "fulfilled", total: 5, currency: "EUR" },
    "test",
  );
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  await executeRun(run!.id);
  const real = await getDb()
    .select({ nodeId: automationRunSteps.nodeId, error: automationRunSteps.error })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, run!.id))
    .orderBy(automationRunSteps.position);
  expect(real).toEqual([
    { nodeId: "mail", error: "The recipient came out empty (does the record have an email?)." },
    { nodeId: "label", error: "The tag came out empty after filling in its placeholders." },
  ]);

  const dry = await tryIt(mine.keys.editor, id, { entityId: "o-1003" });
  expect(dry.status).toBe(200);
  expect(
    dry.body.steps.filter((step) => step.kind === "action").map(({ nodeId, error }) => ({ nodeId, error })),
  ).toEqual(real);
});

//  t (order_fulfilled) ─┬─▶ bad (code: throws) ──▶ after (add_note)
//                       └─▶ tag (add_tag) ─────────────┘
test("a failed script ends its branch in a dry run as in a real run", async () => {
  const mine = await createShop();
  const failing = flow(
    [
      { id: "t", type: "auto.trigger.order_fulfilled" },
      { id: "bad", type: "auto.action.code", params: { source: "throw new Error('no score');" } },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "seen" } },
      { id: "after", type: "auto.action.add_note", params: { body: "Scored" } },
    ],
    [
      ["t", "bad"],
      ["t", "tag"],
      ["bad", "after"],
      ["tag", "after"],
    ],
  );
  const id = await publishFlow(mine.keys.editor, "Failing script", failing);
  await upsertEntity(
    mine.tenant.id,
    "order",
    "o-7",
    { number: "7", status: "paid", total: 5, currency: "EUR" },
    "test",
  );
  await upsertEntity(
    mine.tenant.id,
    "order",
    "o-7",
    { number: "7", status: "fulfilled", total: 5, currency: "EUR" },
    "test",
  );
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  await executeRun(run!.id);
  const real = await getDb()
    .select({ nodeId: automationRunSteps.nodeId, status: automationRunSteps.status })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, run!.id))
    .orderBy(automationRunSteps.position);
  expect(real).toEqual([
    { nodeId: "bad", status: "failed" },
    { nodeId: "tag", status: "success" },
  ]);

  const dry = await tryIt(mine.keys.editor, id, { entityId: "o-7" });
  expect(dry.status, JSON.stringify(dry.body)).toBe(200);
  expect(dry.body.steps.map((s) => [s.nodeId, s.outcome])).toEqual([
    ["t", "started"],
    ["bad", "error"],
    ["tag", "would_run"],
  ]);
  expect(dry.body.steps[1]).toMatchObject({
    error: "no score (line 1).",
    detail: ["The steps after it would not run."],
  });
  expect(dry.body.path.nodeIds).toEqual(["t", "bad", "tag"]);
});

describe("entity options", () => {
  test("labels people recognise, searchable, scoped to the shop", async () => {
    expect(await entityOptions(shop.tenant.id, "order", "1001")).toEqual([
      { id: "o-1001", label: "Order #1001 · ada@example.com · €150.00 · pending" },
    ]);
    expect((await entityOptions(shop.tenant.id, "order")).map((o) => o.id).sort()).toEqual([
      "o-1001",
      "o-1002",
    ]);
    expect(await entityOptions(shop.tenant.id, "order", "%")).toEqual([]);
    expect(await entityOptions(other.tenant.id, "order")).toEqual([]);
    expect(await entityOptions(shop.tenant.id, "webhook")).toEqual([]);
    await expect(entityOptions(shop.tenant.id, "planet")).rejects.toMatchObject({ status: 404 });
  });
});
