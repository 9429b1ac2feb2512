import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as activateRoute } from "@/app/api/v1/automations/[id]/activate/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { GET as waitingRoute } from "@/app/api/v1/automations/[id]/waiting/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { POST as cancelRoute } from "@/app/api/v1/waits/[id]/cancel/route";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { reapRuns } from "@/lib/automations/engine/reap";
import { resumeWait } from "@/lib/automations/engine/pipeline";
import { executeRun } from "@/lib/automations/engine/pipeline";
import { claimWaits } from "@/lib/automations/engine/claim";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps, automationRunWaits, entities } from "@/lib/db/schema";
import { deleteEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, type FlowNode } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { runInStatus } from "@/tests/helpers/poll";
import { placeOrder } from "@/tests/helpers/orders";

let shop: TestShop;

beforeAll(async () => {
  shop = await createShop();
});
const worker = workerForFile();

const wait = (id: string, duration = 5): FlowNode => ({
  id,
  type: "auto.control.wait",
  params: { duration, unit: "minutes" },
});

async function runOf(automationId: string, entityId: string) {
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)));
  return run!;
}

async function pendingWait(runId: string) {
  const [w] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, runId), eq(automationRunWaits.status, "pending")));
  return w!;
}

async function stepsOf(runId: string) {
  return getDb()
    .select({
      nodeId: automationRunSteps.nodeId,
      status: automationRunSteps.status,
      leg: automationRunSteps.leg,
      reason: automationRunSteps.reason,
    })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(asc(automationRunSteps.leg), asc(automationRunSteps.position));
}

async function tagsOf(id: string) {
  return (
    (await getDb().select({ tags: entities.tags }).from(entities).where(eq(entities.id, id)))[0]?.tags ?? []
  );
}

async function resumeNowApi(waitId: string) {
  const res = await call<ErrorReply>(resumeNowRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: waitId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

//  order_created ──▶ Wait 5 minutes ──▶ add_tag(after-wait)
const simpleWait = (tag: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      wait("w"),
      { id: "tag", type: "auto.action.add_tag", params: { tag } },
    ],
    [
      ["t", "w"],
      ["w", "tag"],
    ],
  );

describe("pause and resume", () => {
  test("a wait parks the run with its resume time, and resuming runs the rest as a second leg", async () => {
    const id = await publishFlow(shop.keys.editor, "Simple wait", simpleWait("after-wait"));
    const before = Date.now();
    await placeOrder(shop, "w-1");
    const run = await runInStatus((await runOf(id, "w-1")).id, ["waiting"]);
    const w = await pendingWait(run.id);
    expect(w.resumeAt.getTime()).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(w.resumeAt.getTime()).toBeLessThan(Date.now() + 5 * 60_000 + 1000);
    expect(run.resumeAt?.getTime()).toBe(w.resumeAt.getTime());
    expect(await stepsOf(run.id)).toEqual([{ nodeId: "w", status: "waiting", leg: 1, reason: null }]);
    const job = await getDb().execute<{ run_at: Date }>(
      sql`select run_at from graphile_worker._private_jobs where key = ${w.id}`,
    );
    expect(new Date(job[0]!.run_at).getTime()).toBe(w.resumeAt.getTime());
    expect(await tagsOf("w-1")).toEqual([]);

    await resumeNowApi(w.id);
    const done = await runInStatus(run.id, ["succeeded", "failed", "partial", "cancelled"]);
    expect(done.status).toBe("succeeded");
    expect(done.legs).toBe(2);
    expect(await stepsOf(run.id)).toEqual([
      { nodeId: "w", status: "success", leg: 1, reason: null },
      { nodeId: "tag", status: "success", leg: 2, reason: null },
    ]);
    expect(await tagsOf("w-1")).toEqual(["after-wait"]);

    const detail = await call<{
      waits: { id: string; status: string; kind: string; reason: string | null }[];
      steps: { leg: number }[];
    }>(runRoute, {
      key: shop.keys.viewer,
      params: { id: run.id },
    });
    // The wait says who ended it and how early (it was due 5 minutes after the order).
    expect(detail.body.waits).toEqual([
      expect.objectContaining({
        id: w.id,
        status: "resumed",
        kind: "delay",
        reason: expect.stringMatching(/^Resumed early by .+, [34] minutes? before it was due\.$/),
      }),
    ]);
  });

  //  order_created ──▶ Wait ──▶ status = pending ──true──▶ add_tag(still-pending)
  test("a condition after the wait sees the order as it is now; the first leg still pins the status it fired for", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Still pending",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          wait("w"),
          {
            id: "c",
            type: "auto.condition.field",
            params: { path: "status", operator: "eq", value: "pending" },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "still-pending" } },
        ],
        [
          ["t", "w"],
          ["w", "c"],
          ["c", "tag", "true"],
        ],
      ),
    );
    await placeOrder(shop, "w-2");
    const run = await runInStatus((await runOf(id, "w-2")).id, ["waiting"]);
    await placeOrder(shop, "w-2", { status: "cancelled" });
    await resumeNowApi((await pendingWait(run.id)).id);
    await runInStatus(run.id, ["succeeded"]);
    expect(await tagsOf("w-2")).not.toContain("still-pending");
    const steps = await getDb()
      .select()
      .from(automationRunSteps)
      .where(and(eq(automationRunSteps.runId, run.id), eq(automationRunSteps.nodeId, "c")));
    expect(steps[0]!.output).toEqual({ result: false });

    // First leg: a backlogged status change evaluates the status it fired for, not today's.
    //  order_paid ──▶ status = paid ──true──▶ add_tag(was-paid)
    const pinned = await publishFlow(
      shop.keys.editor,
      "Pinned",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "c",
            type: "auto.condition.field",
            params: { path: "status", operator: "eq", value: "paid" },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "was-paid" } },
        ],
        [
          ["t", "c"],
          ["c", "tag", "true"],
        ],
      ),
    );
    await worker.stop();
    await placeOrder(shop, "w-3");
    await placeOrder(shop, "w-3", { status: "paid" });
    await placeOrder(shop, "w-3", { status: "fulfilled" });
    await worker.start();
    await runInStatus((await runOf(pinned, "w-3")).id, ["succeeded"]);
    expect(await tagsOf("w-3")).toContain("was-paid");
  });

  //  order_created ──▶ add_tag(now) ──▶ Wait ──▶ add_tag(later)
  //               └──▶ add_note   (a sibling branch with no wait)
  test("a branch without a wait runs in the first leg; two sequential waits make three legs", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Two waits",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "note", type: "auto.action.add_note", params: { body: "sibling ran" } },
          wait("w1"),
          wait("w2", 10),
          { id: "tag", type: "auto.action.add_tag", params: { tag: "after-two" } },
        ],
        [
          ["t", "note"],
          ["t", "w1"],
          ["w1", "w2"],
          ["w2", "tag"],
        ],
      ),
    );
    await placeOrder(shop, "w-4");
    const run = await runInStatus((await runOf(id, "w-4")).id, ["waiting"]);
    expect((await stepsOf(run.id)).map((s) => [s.nodeId, s.status, s.leg])).toEqual([
      ["note", "success", 1],
      ["w1", "waiting", 1],
    ]);
    await resumeNowApi((await pendingWait(run.id)).id);
    await expect.poll(async () => (await pendingWait(run.id))?.nodeId, { timeout: 10_000 }).toBe("w2");
    expect((await runInStatus(run.id, ["waiting"])).legs).toBe(2);
    await resumeNowApi((await pendingWait(run.id)).id);
    const done = await runInStatus(run.id, ["succeeded"]);
    expect(done.legs).toBe(3);
    expect((await stepsOf(run.id)).map((s) => [s.nodeId, s.status, s.leg])).toEqual([
      ["note", "success", 1],
      ["w1", "success", 1],
      ["w2", "success", 2],
      ["tag", "success", 3],
    ]);
  });
});

describe("the wake table", () => {
  async function parked(name: string, entityId: string, graph = simpleWait(name)) {
    const id = await publishFlow(shop.keys.editor, name, graph);
    await placeOrder(shop, entityId);
    const run = await runInStatus((await runOf(id, entityId)).id, ["waiting"]);
    return { id, run, wait: await pendingWait(run.id) };
  }

  test("paused while waiting → cancelled with the paused reason; paused and re-activated before due → continues", async () => {
    const a = await parked("paused-a", "k-1");
    const paused = await call<{ impact: { waitingRuns: number; message: string } }>(pauseRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: a.id },
    });
    expect(paused.body.impact).toEqual({
      waitingRuns: 1,
      policy: "cancel",
      message:
        "1 run is waiting at 'Wait 5 minutes'; any that come due while the automation is paused will be cancelled; those due after you activate it again continue.",
    });
    await resumeNowApi(a.wait.id);
    const cancelled = await runInStatus(a.run.id, ["cancelled"]);
    expect(cancelled.reason).toBe("The automation was paused while this run was waiting.");
    expect((await stepsOf(a.run.id))[0]).toMatchObject({
      nodeId: "w",
      status: "skipped",
      reason: cancelled.reason,
    });
    expect(await tagsOf("k-1")).toEqual([]);

    const b = await parked("paused-b", "k-2");
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: b.id } });
    await call(activateRoute, { method: "POST", key: shop.keys.editor, params: { id: b.id } });
    await resumeNowApi(b.wait.id);
    expect((await runInStatus(b.run.id, ["succeeded", "cancelled"])).status).toBe("succeeded");
    expect(await tagsOf("k-2")).toEqual(["paused-b"]);
  });

  async function republish(id: string, tag: string, policy: string, dropWait = false) {
    const graph = dropWait
      ? flow(
          [
            { id: "t", type: "auto.trigger.order_created" },
            { id: "tag", type: "auto.action.add_tag", params: { tag } },
          ],
          [["t", "tag"]],
        )
      : simpleWait(tag);
    const saved = await call(draftRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { graph, inFlightPolicy: policy },
    });
    expect(saved.status).toBe(200);
    const published = await call<{ impact: { message: string } }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(published.status).toBe(200);
    return published.body.impact.message;
  }

  test("edited and re-published: cancel, finish on the started version, or move to the latest", async () => {
    const cancel = await parked("old-cancel", "e-1");
    expect(await republish(cancel.id, "new", "cancel")).toBe(
      "1 run is waiting at 'Wait 5 minutes'; with the current policy they will be cancelled when they wake.",
    );
    await resumeNowApi(cancel.wait.id);
    expect((await runInStatus(cancel.run.id, ["cancelled", "succeeded"])).reason).toBe(
      "The automation was edited while this run was waiting.",
    );

    const finish = await parked("old-finish", "e-2");
    await republish(finish.id, "new", "finish_on_started_version");
    await resumeNowApi(finish.wait.id);
    expect((await runInStatus(finish.run.id, ["succeeded", "cancelled"])).status).toBe("succeeded");
    expect(await tagsOf("e-2")).toEqual(["old-finish"]);

    const move = await parked("old-move", "e-3");
    await republish(move.id, "moved", "move_to_latest");
    await resumeNowApi(move.wait.id);
    const moved = await runInStatus(move.run.id, ["succeeded", "cancelled"]);
    expect(moved).toMatchObject({ status: "succeeded", automationVersion: 2 });
    expect(await tagsOf("e-3")).toEqual(["moved"]);
    expect((await stepsOf(move.run.id))[0]!.reason).toBe("Moved to version 2 when it woke.");

    const gone = await parked("old-gone", "e-4");
    await republish(gone.id, "x", "move_to_latest", true);
    await resumeNowApi(gone.wait.id);
    expect((await runInStatus(gone.run.id, ["cancelled", "succeeded"])).reason).toBe(
      "The automation was edited while this run was waiting, and version 2 no longer has the step it was waiting at.",
    );
  });

  test("the entity deleted while waiting → the run fails with the domain's not-found message", async () => {
    const p = await parked("deleted", "d-1");
    await deleteEntity(shop.tenant.id, "order", "d-1", "test");
    await resumeNowApi(p.wait.id);
    const failed = await runInStatus(p.run.id, ["failed"]);
    expect(failed.error).toBe("The order 'd-1' no longer exists.");
    expect((await stepsOf(p.run.id))[0]).toMatchObject({ status: "failed" });
  });
});

describe("exactly once, and never stuck", () => {
  /** Parks a run at its wait with the worker stopped, running the first leg here. */
  async function parkedRun(entityId: string) {
    const id = await publishFlow(shop.keys.editor, `once-${entityId}`, simpleWait(`once-${entityId}`));
    await placeOrder(shop, entityId);
    await executeRun((await runOf(id, entityId)).id);
    const run = await runInStatus((await runOf(id, entityId)).id, ["waiting"]);
    return { run, wait: await pendingWait(run.id) };
  }

  test("a resume job delivered twice runs one leg: the second finds the wait claimed and does nothing", async () => {
    await worker.stop();
    const { run, wait: w } = await parkedRun("x-1");
    expect(await resumeWait(w.id)).toBe("resumed");
    expect(await resumeWait(w.id)).toBe("noop");
    expect((await stepsOf(run.id)).map((s) => [s.nodeId, s.leg])).toEqual([
      ["w", 1],
      ["tag", 2],
    ]);
    expect(await tagsOf("x-1")).toEqual(["once-x-1"]);
    await worker.start();
  });

  test("a crash between claim and completion: the retried job finishes the leg instead of leaving it waiting", async () => {
    await worker.stop();
    const { run, wait: w } = await parkedRun("x-2");
    // The worker claimed the wait, then died before running the leg.
    expect(await claimWaits([w.id])).toHaveLength(1);
    expect(
      (await getDb().select().from(automationRuns).where(eq(automationRuns.id, run.id)))[0]!.status,
    ).toBe("running");
    expect(await resumeWait(w.id)).toBe("resumed");
    const [after] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run.id));
    expect(after!.status).toBe("succeeded");
    await worker.start();
  });

  test("a wait row never exists without its job: when scheduling fails, nothing of the pause is kept", async () => {
    await worker.stop();
    const id = await publishFlow(shop.keys.editor, "No job", simpleWait("no-job"));
    await placeOrder(shop, "n-1");
    const run = await runOf(id, "n-1");
    // A wait's job goes into graphile-worker's jobs table in the statement that writes the wait.
    await getDb().execute(sql`alter table graphile_worker._private_jobs rename to _private_jobs_broken`);
    try {
      await expect(executeRun(run.id)).rejects.toThrow();
    } finally {
      await getDb().execute(sql`alter table graphile_worker._private_jobs_broken rename to _private_jobs`);
    }
    expect(
      await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run.id)),
    ).toEqual([]);
    expect(await stepsOf(run.id)).toEqual([]);
    await executeRun(run.id);
    const w = await pendingWait(run.id);
    const job = await getDb().execute(sql`select 1 from graphile_worker._private_jobs where key = ${w.id}`);
    expect(job).toHaveLength(1);
    await worker.start();
  });

  test("the reaper fails a wait an hour overdue and reschedules one whose job was lost", async () => {
    await worker.stop();
    const overdue = await parkedRun("r-1");
    const lost = await parkedRun("r-2");
    await getDb().execute(
      sql`delete from graphile_worker._private_jobs where key in (${overdue.wait.id}, ${lost.wait.id})`,
    );
    await getDb()
      .update(automationRunWaits)
      .set({ resumeAt: new Date(Date.now() - 2 * 3_600_000) })
      .where(eq(automationRunWaits.id, overdue.wait.id));
    const result = await reapRuns();
    expect(result).toMatchObject({ overdueWaits: 1, rescheduledWaits: 1 });
    const [failed] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, overdue.run.id));
    expect(failed).toMatchObject({ status: "failed", error: "Scheduled resume never ran." });
    const job = await getDb().execute<{ run_at: Date }>(
      sql`select run_at from graphile_worker._private_jobs where key = ${lost.wait.id}`,
    );
    expect(new Date(job[0]!.run_at).getTime()).toBe(lost.wait.resumeAt.getTime());
    const [rescheduled] = await getDb()
      .select()
      .from(automationRunWaits)
      .where(eq(automationRunWaits.id, lost.wait.id));
    expect(rescheduled).toMatchObject({
      status: "pending",
      reason: "Its job had vanished; the watchdog scheduled it again.",
    });
    await worker.start();
  });
});

describe("operations", () => {
  test("the Waiting list shows pending waits; cancel ends the run; a viewer can do neither; another shop gets 404", async () => {
    const id = await publishFlow(shop.keys.editor, "Ops", simpleWait("ops"));
    await placeOrder(shop, "o-1");
    await placeOrder(shop, "o-2");
    const r1 = await runInStatus((await runOf(id, "o-1")).id, ["waiting"]);
    await runInStatus((await runOf(id, "o-2")).id, ["waiting"]);
    const list = await call<{
      items: { id: string; runId: string; nodeId: string; entity: { id: string } }[];
    }>(waitingRoute, {
      key: shop.keys.viewer,
      params: { id },
    });
    expect(list.body.items.map((w) => w.entity.id).sort()).toEqual(["o-1", "o-2"]);

    const w1 = list.body.items.find((w) => w.runId === r1.id)!;
    const viewerCancel = await call<ErrorReply>(cancelRoute, {
      method: "POST",
      key: shop.keys.viewer,
      params: { id: w1.id },
    });
    expect(viewerCancel.status).toBe(403);
    const viewerResume = await call<ErrorReply>(resumeNowRoute, {
      method: "POST",
      key: shop.keys.viewer,
      params: { id: w1.id },
    });
    expect(viewerResume.status).toBe(403);
    const other = await createShop();
    expect(
      (await call<ErrorReply>(cancelRoute, { method: "POST", key: other.keys.admin, params: { id: w1.id } }))
        .status,
    ).toBe(404);
    expect((await call<ErrorReply>(waitingRoute, { key: other.keys.admin, params: { id } })).status).toBe(
      404,
    );

    const cancelled = await call<{ status: string }>(cancelRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: w1.id },
    });
    expect(cancelled.body.status).toBe("cancelled");
    const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, r1.id));
    expect(run).toMatchObject({
      status: "cancelled",
      reason: expect.stringMatching(/^Cancelled by API key tf_/),
    });
    const again = await call<ErrorReply>(cancelRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: w1.id },
    });
    expect(again.status).toBe(409);
    const after = await call<{ items: unknown[]; dropped: { id: string; reason: string }[] }>(waitingRoute, {
      key: shop.keys.viewer,
      params: { id },
    });
    expect(after.body.items).toHaveLength(1);
    expect(after.body.dropped).toEqual([
      expect.objectContaining({ id: w1.id, reason: expect.stringMatching(/^Cancelled by/) }),
    ]);
  });
});
