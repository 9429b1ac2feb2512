import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as cancelAllRoute } from "@/app/api/v1/automations/[id]/waiting/cancel-all/route";
import { GET as automationWaitingRoute } from "@/app/api/v1/automations/[id]/waiting/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { GET as runsRoute } from "@/app/api/v1/runs/route";
import { POST as taskDoneRoute } from "@/app/api/v1/tasks/[id]/done/route";
import { GET as tasksRoute } from "@/app/api/v1/tasks/route";
import { POST as cancelShopWaitsRoute } from "@/app/api/v1/waiting/cancel-all/route";
import { GET as waitingRoute } from "@/app/api/v1/waiting/route";
import { POST as cancelRoute } from "@/app/api/v1/waits/[id]/cancel/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import type { RunDetail } from "@/lib/automations/runs/detail";
import type { RunSummary } from "@/lib/automations/runs/summary";
import type { TaskView } from "@/lib/automations/work/tasks";
import type { WaitingItem } from "@/lib/automations/waits/view";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, type RunStatus } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});
workerForFile();

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const order = (n: number) => ({ number: `#${n}`, status: "pending", total: 10, currency: "EUR" });

async function runs(query: string, key = shop.keys.viewer) {
  return call<Page<RunSummary> & ErrorReply>(runsRoute, { key, path: `/api/v1/runs?${query}` });
}

async function runStatus(runId: string, statuses: RunStatus[]) {
  await expect
    .poll(
      async () =>
        (await getDb().select().from(automationRuns).where(eq(automationRuns.id, runId)))[0]!.status,
      { timeout: 15_000, interval: 50 },
    )
    .toSatisfy((s: RunStatus) => statuses.includes(s));
}

async function runOf(automationId: string) {
  await expect
    .poll(
      async () =>
        (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId)))
          .length,
      {
        timeout: 15_000,
      },
    )
    .toBeGreaterThan(0);
  return (
    await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
  )[0]!;
}

//  order_created ──▶ add_tag(seen)
const tagFlow = (tag: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "a", type: "auto.action.add_tag", params: { tag } },
    ],
    [["t", "a"]],
  );

describe("the runs list", () => {
  test("filters by automation, status, entity and date, and refuses bad filters in plain English", async () => {
    const first = await publishFlow(shop.keys.editor, "Tag first", tagFlow("first"));
    const second = await publishFlow(shop.keys.editor, "Tag second", tagFlow("second"));
    await upsertEntity(shop.tenant.id, "order", "f-1", order(1), "test");
    await upsertEntity(shop.tenant.id, "order", "f-2", order(2), "test");
    await settledRuns(first, 2);
    await settledRuns(second, 2);

    const byAutomation = await runs(`automationId=${first}`);
    expect(byAutomation.status).toBe(200);
    expect(byAutomation.body.items).toHaveLength(2);
    expect(
      byAutomation.body.items.every((r) => r.automationId === first && r.automationName === "Tag first"),
    ).toBe(true);
    expect((await runs("status=succeeded")).body.items.length).toBeGreaterThanOrEqual(4);
    expect((await runs("status=failed")).body.items).toHaveLength(0);
    const byEntity = await runs("domain=order&entityId=f-2");
    expect(byEntity.body.items.map((r) => [r.entityId, r.automationName]).sort()).toEqual([
      ["f-2", "Tag first"],
      ["f-2", "Tag second"],
    ]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await runs(`from=${tomorrow}`)).body.items).toHaveLength(0);
    expect((await runs(`to=${tomorrow}&automationId=${second}`)).body.items).toHaveLength(2);

    for (const [query, status, words] of [
      ["status=sleeping", 422, "status: must be one of"],
      ["automationId=nope", 422, "automationId: must be an automation id"],
      ["from=last-week", 422, "from: must be a date"],
      ["from=2026-02-02&to=2026-01-01", 422, "from must be before to"],
      ["cursor=garbage", 400, "The cursor is not one this API returned"],
      ["limit=5000", 422, "limit"],
    ] as const) {
      const res = await runs(query);
      expect(res.status, query).toBe(status);
      expect(res.body.error.message, query).toContain(words);
    }
    // Another shop sees none of it.
    expect((await runs("", other.keys.admin)).body.items).toHaveLength(0);
  });

  test("keyset pages never skip or repeat runs that started in the same microsecond", async () => {
    const id = await publishFlow(shop.keys.editor, "Same instant", tagFlow("same"));
    // Seven runs created in one statement share one now(), as runs of one event do.
    await getDb().execute(sql`
      insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
        event, domain, entity_id)
      select ${shop.tenant.id}::uuid, ${id}::uuid, 1, 'succeeded', 'same-' || g, 't',
        '{"id":"x","type":"order.created","domain":"order","entityId":"o","entityStatus":null,"payload":{},"occurredAt":"2026-01-01T00:00:00Z"}'::jsonb,
        'order', 'o' from generate_series(1, 7) g`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Page<RunSummary> } = await runs(
        `automationId=${id}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((r) => r.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });
});

describe("a run's detail", () => {
  //  order_created ──▶ add_tag(x)  ◀── Wait 5 min ◀── order_created
  //  The same add_tag runs in leg 1 from the trigger and again in leg 2 after the wait.
  const twoLegs = flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "twice" } },
      { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
    ],
    [
      ["t", "tag"],
      ["t", "w"],
      ["w", "tag"],
    ],
  );

  test("lists both legs, numbers a repeated node's occurrences, and carries the version's graph", async () => {
    const id = await publishFlow(shop.keys.editor, "Two legs", twoLegs);
    await upsertEntity(shop.tenant.id, "order", "legs-1", order(3), "test");
    const run = await runOf(id);
    await runStatus(run.id, ["waiting"]);

    const waiting = await call<RunDetail>(runRoute, { key: shop.keys.viewer, params: { id: run.id } });
    expect(waiting.body.status).toBe("waiting");
    const [wait] = waiting.body.waits;
    expect(waiting.body.resumeAt).toBe(wait!.resumeAt);
    expect(waiting.body.automationName).toBe("Two legs");
    // Steps and waits are named as drawn ("Wait 5 minutes"), never by node id ("Wait w").
    expect(wait!.label).toBe("Wait 5 minutes");
    expect(waiting.body.steps.map((s) => s.label)).toEqual(["Add tag 'twice'", "Wait 5 minutes"]);
    const listed = await call<{ items: WaitingItem[] }>(waitingRoute, { key: shop.keys.viewer });
    const item = listed.body.items.find((i) => i.id === wait!.id);
    expect(item?.label).toBe("Wait 5 minutes");
    // The record by what merchants call it, as in the runs list.
    expect(item?.entityLabel).toBe(waiting.body.entityLabel);
    expect(item?.entityLabel).toMatch(/^Order /);

    const resumed = await call<ErrorReply>(resumeNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: wait!.id },
    });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    await runStatus(run.id, ["succeeded"]);

    const { body } = await call<RunDetail>(runRoute, { key: shop.keys.viewer, params: { id: run.id } });
    expect(body.resumeAt).toBeNull();
    expect(body.steps.map((s) => [s.key, s.leg, s.status])).toEqual([
      ["tag#1", 1, "success"],
      ["w#1", 1, "success"],
      ["tag#2", 2, "success"],
    ]);
    expect(body.graph?.nodes.map((n) => n.id)).toEqual(["t", "tag", "w"]);
    expect(body.nodeStatuses).toEqual({ tag: "success", w: "success" });
  });

  test("another shop's run is not found, and a malformed id is not found either", async () => {
    const [mine] = await getDb()
      .select()
      .from(automationRuns)
      .where(eq(automationRuns.tenantId, shop.tenant.id))
      .limit(1);
    expect((await call(runRoute, { key: other.keys.admin, params: { id: mine!.id } })).status).toBe(404);
    expect((await call(runRoute, { key: shop.keys.admin, params: { id: "not-a-run" } })).status).toBe(404);
  });
});

describe("waits", () => {
  //  order_created ──▶ Wait 5 min ──▶ tag(a)
  //                └─▶ Wait 10 min ──▶ tag(b)
  const twoWaits = flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "w5", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
      { id: "w10", type: "auto.control.wait", params: { duration: 10, unit: "minutes" } },
      { id: "a", type: "auto.action.add_tag", params: { tag: "a" } },
      { id: "b", type: "auto.action.add_tag", params: { tag: "b" } },
    ],
    [
      ["t", "w5"],
      ["t", "w10"],
      ["w5", "a"],
      ["w10", "b"],
    ],
  );

  test("'resumes in' follows the earliest pending wait as waits are cancelled", async () => {
    const id = await publishFlow(shop.keys.editor, "Two waits", twoWaits);
    await upsertEntity(shop.tenant.id, "order", "waits-1", order(4), "test");
    const run = await runOf(id);
    await runStatus(run.id, ["waiting"]);
    await expect.poll(async () => (await runs(`automationId=${id}`)).body.items[0]?.resumeAt).toBeTruthy();
    const waits = await getDb()
      .select()
      .from(automationRunWaits)
      .where(eq(automationRunWaits.runId, run.id))
      .orderBy(automationRunWaits.resumeAt);
    expect(waits).toHaveLength(2);
    const [soon, later] = waits;
    expect((await runs(`automationId=${id}`)).body.items[0]!.resumeAt).toBe(soon!.resumeAt.toISOString());

    // A viewer cannot cancel or resume; the API says why.
    for (const route of [cancelRoute, resumeNowRoute]) {
      const refused = await call<ErrorReply>(route, {
        method: "POST",
        key: shop.keys.viewer,
        params: { id: soon!.id },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain("Viewers can read but not change anything");
    }
    // Another shop's key does not find the wait at all.
    expect(
      (await call(cancelRoute, { method: "POST", key: other.keys.admin, params: { id: soon!.id } })).status,
    ).toBe(404);

    expect(
      (await call(cancelRoute, { method: "POST", key: shop.keys.editor, params: { id: soon!.id } })).status,
    ).toBe(200);
    const after = (await runs(`automationId=${id}`)).body.items[0]!;
    expect(after.status).toBe("waiting");
    expect(after.resumeAt).toBe(later!.resumeAt.toISOString());

    const again = await call<ErrorReply>(cancelRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: soon!.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This wait is already cancelled.");
  });

  test("the Waiting lists name the automation; cancel all empties one automation's and is refused to viewers", async () => {
    const id = await publishFlow(shop.keys.editor, "Waits to cancel", twoWaits);
    await upsertEntity(shop.tenant.id, "order", "waits-2", order(5), "test");
    const run = await runOf(id);
    await runStatus(run.id, ["waiting"]);

    const shopWide = await call<Page<WaitingItem>>(waitingRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/waiting",
    });
    expect(shopWide.body.items.filter((w) => w.runId === run.id).map((w) => w.automationName)).toEqual([
      "Waits to cancel",
      "Waits to cancel",
    ]);
    expect(
      (await call(cancelAllRoute, { method: "POST", key: shop.keys.viewer, params: { id } })).status,
    ).toBe(403);
    const cancelled = await call<{ cancelled: number }>(cancelAllRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(cancelled.body).toEqual({ cancelled: 2 });
    await runStatus(run.id, ["cancelled"]);
    const list = await call<Page<WaitingItem> & { dropped: WaitingItem[] }>(automationWaitingRoute, {
      key: shop.keys.viewer,
      params: { id },
      path: `/api/v1/automations/${id}/waiting`,
    });
    expect(list.body.items).toHaveLength(0);
    expect(list.body.dropped).toHaveLength(2);
    expect(list.body.dropped[0]!.reason).toMatch(/^Cancelled by API key /);
    const detail = await call<RunDetail>(runRoute, { key: shop.keys.viewer, params: { id: run.id } });
    expect(detail.body.reason).toMatch(/^Cancelled by API key /);
    expect(
      detail.body.steps.every((s) => s.status === "skipped" && s.reason?.startsWith("Cancelled by")),
    ).toBe(true);
  });
});

describe("cancel all across the shop", () => {
  //  customer_created ──▶ Wait 1 hour ──▶ tag(late)   (no other flow here listens to customers)
  const oneWait = flow(
    [
      { id: "t", type: "auto.trigger.customer_created" },
      { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
      { id: "a", type: "auto.action.add_tag", params: { tag: "late" } },
    ],
    [
      ["t", "w"],
      ["w", "a"],
    ],
  );

  test("cancels every pending wait of the shop and none of another shop's; viewers are refused", async () => {
    const mine = await publishFlow(shop.keys.editor, "Shop-wide waits", oneWait);
    const theirs = await publishFlow(other.keys.editor, "Another shop's waits", oneWait);
    const customer = { email: "ada@example.com", name: "Ada" };
    await upsertEntity(shop.tenant.id, "customer", "shop-wide-1", customer, "test");
    await upsertEntity(other.tenant.id, "customer", "shop-wide-2", customer, "test");
    const myRun = await runOf(mine);
    const theirRun = await runOf(theirs);
    await runStatus(myRun.id, ["waiting"]);
    await runStatus(theirRun.id, ["waiting"]);

    expect((await call(cancelShopWaitsRoute, { method: "POST", key: shop.keys.viewer })).status).toBe(403);
    const cancelled = await call<{ cancelled: number }>(cancelShopWaitsRoute, {
      method: "POST",
      key: shop.keys.editor,
    });
    expect(cancelled.status).toBe(200);
    await runStatus(myRun.id, ["cancelled"]);
    const pendingMine = await getDb()
      .select()
      .from(automationRunWaits)
      .where(
        sql`${automationRunWaits.tenantId} = ${shop.tenant.id} and ${automationRunWaits.status} = 'pending'`,
      );
    expect(pendingMine).toHaveLength(0);
    const pendingTheirs = await getDb()
      .select()
      .from(automationRunWaits)
      .where(
        sql`${automationRunWaits.tenantId} = ${other.tenant.id} and ${automationRunWaits.status} = 'pending'`,
      );
    expect(pendingTheirs.length).toBeGreaterThan(0);
    expect(pendingTheirs.every((w) => w.runId === theirRun.id)).toBe(true);
  });
});

describe("staff tasks", () => {
  test("a flow's task is listed with its automation and entity; editors mark it done once, viewers cannot", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Call the customer",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "task",
            type: "auto.action.create_task",
            params: { title: "Call about {entity.number}", dueIn: "2h" },
          },
        ],
        [["t", "task"]],
      ),
    );
    await upsertEntity(shop.tenant.id, "order", "task-1", order(77), "test");
    await settledRuns(id);

    const open = await call<Page<TaskView>>(tasksRoute, { key: shop.keys.viewer, path: "/api/v1/tasks" });
    const task = open.body.items.find((t) => t.title === "Call about #77");
    expect(task).toMatchObject({
      status: "open",
      automationId: id,
      automationName: "Call the customer",
      entity: { domain: "order", id: "task-1" },
    });
    expect((await call(tasksRoute, { key: other.keys.viewer, path: "/api/v1/tasks" })).body).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(
      (await call(tasksRoute, { key: shop.keys.viewer, path: "/api/v1/tasks?status=maybe" })).status,
    ).toBe(422);

    expect(
      (await call(taskDoneRoute, { method: "POST", key: shop.keys.viewer, params: { id: task!.id } })).status,
    ).toBe(403);
    expect(
      (await call(taskDoneRoute, { method: "POST", key: other.keys.admin, params: { id: task!.id } })).status,
    ).toBe(404);
    const done = await call<TaskView>(taskDoneRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: task!.id },
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("done");
    const twice = await call<ErrorReply>(taskDoneRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: task!.id },
    });
    expect(twice.status).toBe(409);
    const doneList = await call<Page<TaskView>>(tasksRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/tasks?status=done",
    });
    expect(doneList.body.items.map((t) => t.id)).toContain(task!.id);
    expect(
      (
        await call<Page<TaskView>>(tasksRoute, { key: shop.keys.viewer, path: "/api/v1/tasks" })
      ).body.items.map((t) => t.id),
    ).not.toContain(task!.id);
  });
});
