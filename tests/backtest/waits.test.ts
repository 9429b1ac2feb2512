import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { POST as backtestRoute } from "@/app/api/v1/automations/[id]/backtest/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import type { BacktestResult } from "@/lib/automations/backtest/backtest";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, outboxEmails } from "@/lib/db/schema";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, type FlowNode } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { runInStatus, TERMINAL, until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Issue 49: a backtest follows each real run through its waits. A merchant added "Total is at
 * least 100" after a 1-hour Wait; the backtest used to stop at the wait and say "All 3 runs would
 * take the same path", while the €93 order got the reminder under v1 and would not under v2. Real
 * runs, with the real worker: each wait is ended through the API ("Resume now") or decided.
 */

let shop: TestShop;

beforeAll(async () => {
  shop = await createShop();
});
workerForFile();

const oneHour: FlowNode = { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } };
const remind: FlowNode = {
  id: "mail",
  type: "auto.action.send_email",
  params: {
    purpose: "transactional",
    to: "{entity.email}",
    subject: "Your order {entity.number}",
    body: "Thanks again!",
  },
};
const atLeast100: FlowNode = {
  id: "big",
  type: "auto.condition.field",
  params: { path: "total", operator: "gte", value: 100 },
};

//  order_paid ──▶ Wait 1 hour ──▶ send_email                       (v1, live)
const remindLater = flow(
  [{ id: "t", type: "auto.trigger.order_paid" }, oneHour, remind],
  [
    ["t", "w"],
    ["w", "mail"],
  ],
);
//  order_paid ──▶ Wait 1 hour ──▶ total ≥ 100 ──true──▶ send_email (v2, the draft)
const remindBigLater = flow(
  [{ id: "t", type: "auto.trigger.order_paid" }, oneHour, atLeast100, remind],
  [
    ["t", "w"],
    ["w", "big"],
    ["big", "mail", "true"],
  ],
);

async function paidOrder(id: string, total: number) {
  const fields = { number: `#${id}`, total, email: `${id}@example.com` };
  await placeOrder(shop, id, fields);
  await placeOrder(shop, id, { ...fields, status: "paid" });
}

async function runOf(automationId: string, entityId: string) {
  const [run] = await until(
    () =>
      getDb()
        .select()
        .from(automationRuns)
        .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId))),
    (rows) => rows.length === 1,
    { timeoutMs: 15_000, what: `the run of ${entityId}` },
  );
  return run!;
}

/** The run's pending wait, once the run waits at it. */
async function waitOf(runId: string) {
  await runInStatus(runId, ["waiting"]);
  const [wait] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, runId), eq(automationRunWaits.status, "pending")));
  return wait!;
}

/** A paid order whose run waits at its first wait; `end` ends the wait now ("Resume now") and lets the run finish. */
async function waitingRun(automationId: string, orderId: string, total: number) {
  await paidOrder(orderId, total);
  const run = await runOf(automationId, orderId);
  const wait = await waitOf(run.id);
  return { run, wait };
}

async function resumeNow(runId: string, waitId: string) {
  const resumed = await call(resumeNowRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: waitId },
  });
  expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
  return runInStatus(runId, TERMINAL);
}

async function backtest(automationId: string, graph: unknown) {
  const reply = await call<BacktestResult>(backtestRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: automationId },
    body: { graph },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

describe("a backtest through waits", () => {
  let automationId = "";
  const runIdOf = new Map<string, string>();

  beforeAll(async () => {
    automationId = await publishFlow(shop.keys.editor, "Reminder an hour later", remindLater);
    for (const [orderId, total] of [
      ["r-150", 150],
      ["r-120", 120],
      ["r-93", 93],
    ] as const) {
      const { run, wait } = await waitingRun(automationId, orderId, total);
      expect((await resumeNow(run.id, wait.id)).status).toBe("succeeded");
      runIdOf.set(orderId, run.id);
    }
    // Each order got its reminder under v1, after the wait.
    const emails = await getDb().select().from(outboxEmails).where(eq(outboxEmails.tenantId, shop.tenant.id));
    expect(emails.map((e) => e.to).sort()).toEqual([
      "r-120@example.com",
      "r-150@example.com",
      "r-93@example.com",
    ]);
  }, 60_000);

  test("a condition added after a 1-hour Wait: the €93 order would no longer get the reminder, the others would", async () => {
    const result = await backtest(automationId, remindBigLater);
    expect(result.runs).toBe(3);
    expect(result.headline).toBe("3 runs: 1 would take a different path; 2 would take the same path");
    expect(result.headline).not.toMatch(/All 3 runs/);
    expect(result.changed).toHaveLength(1);
    const [change] = result.changed;
    expect(change).toMatchObject({
      runId: runIdOf.get("r-93"),
      entity: { domain: "order", id: "r-93" },
      then: ["t", "w", "mail"],
      now: ["t", "w", "big"],
    });
    expect(change!.entity?.label).toMatch(/^Order #r-93 /);
    expect(result.unknown).toEqual([]);
    expect(result.sentences).toEqual([`1 run would no longer reach “${result.labels.mail}”`]);
    expect(result.labels.mail).toMatch(/^Email /);
    expect(result.then).toMatchObject({ t: 3, w: 3, mail: 3 });
    expect(result.now).toMatchObject({ t: 3, w: 3, big: 3, mail: 2 });
    // The live graph itself: every run the same, over the whole flow.
    const live = await backtest(automationId, remindLater);
    expect(live.headline).toBe("All 3 runs would take the same path");
    expect(live.sentences).toEqual(["All 3 runs would take the same path"]);
  });

  test("a run still waiting: its later steps are not known yet, and the words say so", async () => {
    const { run } = await waitingRun(automationId, "r-200", 200);
    const result = await backtest(automationId, remindBigLater);
    expect(result.runs).toBe(4);
    expect(result.headline).toBe(
      "4 runs: 1 would take a different path; 2 would take the same path; 1 is still waiting, so its later steps are not known yet",
    );
    expect(result.changed.map((c) => c.runId)).toEqual([runIdOf.get("r-93")]);
    expect(result.unknown).toEqual([
      expect.objectContaining({
        runId: run.id,
        notKnown: "waiting",
        then: ["t", "w"],
        now: ["t", "w"],
        entity: expect.objectContaining({ id: "r-200" }),
      }),
    ]);
    expect(result.sentences).toEqual([
      `1 run would no longer reach “${result.labels.mail}”`,
      "1 run is still waiting, so its later steps are not known yet",
    ]);

    // With no change at all, the waiting run still keeps "all the same" from being said.
    const live = await backtest(automationId, remindLater);
    expect(live.headline).toBe(
      "4 runs: 3 would take the same path; 1 is still waiting, so its later steps are not known yet",
    );
    expect(live.sentences).toEqual([
      "3 runs would take the same path",
      "1 run is still waiting, so its later steps are not known yet",
    ]);
  });

  //  order_paid ──▶ Wait 1 hour ──▶ Approval ──approved──▶ send_email
  test("an approval the real runs never had: each way it could go is a possible path", async () => {
    const withApproval = flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        oneHour,
        {
          id: "ok",
          type: "auto.control.approval",
          params: { title: "Send the reminder?", timeoutHours: 24, approverRole: "editor" },
        },
        remind,
      ],
      [
        ["t", "w"],
        ["w", "ok"],
        ["ok", "mail", "approved"],
      ],
    );
    const result = await backtest(automationId, withApproval);
    // The three finished runs would newly wait for the approval; whether the reminder follows depends on it.
    expect(result.changed.map((c) => c.runId).sort()).toEqual([...runIdOf.values()].sort());
    for (const change of result.changed) {
      expect(change.now).toEqual(["t", "w", "ok"]);
      expect(change.maybe).toEqual(["mail"]);
      expect(change.undecided).toEqual(["ok"]);
    }
    expect(result.headline).toBe(
      "4 runs: 3 would take a different path; 1 is still waiting, so its later steps are not known yet",
    );
    expect(result.sentences).toEqual([
      `3 runs would newly reach “${result.labels.ok}”`,
      `3 runs might no longer reach “${result.labels.mail}”, depending on “${result.labels.ok}”`,
      "1 run is still waiting, so its later steps are not known yet",
    ]);
    expect(result.notes).toContain(
      "Where a run meets an approval or a wait for an event it never had, each way it could go was followed.",
    );
  });
});

//  order_paid ──▶ Approval ──approved──▶ send_email
//                          └─rejected──▶ add_tag(declined)
describe("a backtest through an approval the real run had", () => {
  const review: FlowNode = {
    id: "review",
    type: "auto.control.approval",
    params: { title: "Remind {entity.number}?", timeoutHours: 72, approverRole: "editor" },
  };
  const declined: FlowNode = { id: "no", type: "auto.action.add_tag", params: { tag: "declined" } };
  const reviewed = (approvedOnlyIfBig: boolean) =>
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        review,
        ...(approvedOnlyIfBig ? [atLeast100] : []),
        remind,
        declined,
      ],
      [
        ["t", "review"],
        ...(approvedOnlyIfBig
          ? ([
              ["review", "big", "approved"],
              ["big", "mail", "true"],
            ] as [string, string, string][])
          : ([["review", "mail", "approved"]] as [string, string, string][])),
        ["review", "no", "rejected"],
      ],
    );

  test("each run follows the decision it got: the approved €60 order changes, the rejected one does not", async () => {
    const automationId = await publishFlow(shop.keys.editor, "Reviewed reminder", reviewed(false));
    const runs: Record<string, string> = {};
    for (const [orderId, decision] of [
      ["a-60", "approved"],
      ["n-60", "rejected"],
    ] as const) {
      const { run, wait } = await waitingRun(automationId, orderId, 60);
      const decided = await call(decideRoute, {
        method: "POST",
        key: shop.keys.editor,
        params: { waitId: wait.id },
        body: { decision },
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect((await runInStatus(run.id, TERMINAL)).status).toBe("succeeded");
      runs[orderId] = run.id;
    }

    const result = await backtest(automationId, reviewed(true));
    expect(result.runs).toBe(2);
    // Taken as timed out (a dry run's guess), both would have changed; taken as they went, only the approved one.
    expect(result.headline).toBe("2 runs: 1 would take a different path; 1 would take the same path");
    expect(result.changed).toEqual([
      expect.objectContaining({
        runId: runs["a-60"],
        then: ["t", "review", "mail"],
        now: ["t", "review", "big"],
      }),
    ]);
    expect(result.changed[0]).not.toHaveProperty("maybe");
    expect(result.then).toMatchObject({ review: 2, mail: 1, no: 1 });
    expect(result.now).toMatchObject({ review: 2, big: 1, no: 1 });
    expect(result.now).not.toHaveProperty("mail");
  }, 60_000);
});

//  order_paid ──▶ wait for order.fulfilled ──received──▶ [check] ──▶ add_tag(got)
//                                          └─timed_out─▶ add_tag(late)
describe("a backtest through a wait for an event", () => {
  const fulfilled = (check: FlowNode | null) =>
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "w",
          type: "auto.control.wait_for_event",
          params: { event: "order.fulfilled", timeoutHours: 72 },
        },
        ...(check ? [check] : []),
        { id: "got", type: "auto.action.add_tag", params: { tag: "got" } },
        { id: "late", type: "auto.action.add_tag", params: { tag: "late" } },
      ],
      [
        ["t", "w"],
        ...((check
          ? [
              ["w", check.id, "received"],
              [check.id, "got", "true"],
            ]
          : [["w", "got", "received"]]) as [string, string, string][]),
        ["w", "late", "timed_out"],
      ],
    );

  test("each run follows 'received' with the event that woke it, or 'timed_out'", async () => {
    const automationId = await publishFlow(shop.keys.editor, "Fulfilled or late", fulfilled(null));
    const came = await waitingRun(automationId, "e-came", 60);
    await placeOrder(shop, "e-came", { number: "#e-came", total: 60, status: "fulfilled" });
    expect((await runInStatus(came.run.id, TERMINAL)).status).toBe("succeeded");
    const late = await waitingRun(automationId, "e-late", 60);
    expect((await resumeNow(late.run.id, late.wait.id)).status).toBe("succeeded");

    // A condition on the event that woke the wait reads it, as in the real run.
    const onEvent = await backtest(
      automationId,
      fulfilled({
        id: "what",
        type: "auto.condition.field",
        params: { path: "steps.w.event.type", operator: "eq", value: "order.fulfilled" },
      }),
    );
    expect(onEvent.headline).toBe("All 2 runs would take the same path");
    expect(onEvent.then).toMatchObject({ w: 2, got: 1, late: 1 });
    expect(onEvent.now).toMatchObject({ w: 2, what: 1, got: 1, late: 1 });

    const onTotal = await backtest(automationId, fulfilled({ ...atLeast100, id: "big" }));
    expect(onTotal.headline).toBe("2 runs: 1 would take a different path; 1 would take the same path");
    expect(onTotal.changed).toEqual([
      expect.objectContaining({ runId: came.run.id, lost: ["got"], gained: [] }),
    ]);
  }, 60_000);
});

describe("a backtest of a run stopped on waking", () => {
  test("a run cancelled when its wait ended (the automation was paused) stops there in the replay too", async () => {
    const automationId = await publishFlow(shop.keys.editor, "Reminder, paused", remindLater);
    const { run, wait } = await waitingRun(automationId, "p-1", 150);
    const paused = await call(pauseRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
    });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect((await resumeNow(run.id, wait.id)).status).toBe("cancelled");
    const [woke] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, wait.id));
    expect(woke!.status).toBe("resumed");

    const result = await backtest(automationId, remindLater);
    // Its wait resumed, but the run went no further: the replay does not send the email it never sent.
    expect(result.headline).toBe("The run would take the same path");
    expect(result.then).toMatchObject({ t: 1, w: 1 });
    expect(result.now).not.toHaveProperty("mail");
  }, 60_000);
});
