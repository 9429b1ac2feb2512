import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as pauseAllRoute } from "@/app/api/v1/automations/pause-all/route";
import { POST as resumeAllRoute } from "@/app/api/v1/automations/resume-all/route";
import { GET as brakeRoute } from "@/app/api/v1/automations/brake/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { reapRuns } from "@/lib/automations/engine/reap";
import { BRAKE_HOLD_NOTE, waitFates } from "@/lib/automations/waits/fate";
import type { BrakeImpact, BrakeState } from "@/lib/automations/brake/brake";
import { getDb } from "@/lib/db/client";
import {
  auditEvents,
  automationBrakes,
  automationRunSteps,
  automationRuns,
  automationRunWaits,
  automations,
  automationSchedules,
} from "@/lib/db/schema";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, waitThenTag } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { runInStatus, until } from "@/tests/helpers/poll";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/**
 * The emergency brake (issue 53, item 5): pause-all remembers exactly what it paused and
 * resume-all restores exactly that; a wait that falls due while it is on holds, then runs after,
 * once, in order, on the real worker; viewers and editors are refused; other shops are untouched.
 */

let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});
const worker = workerForFile();

const daily = (tag: string) =>
  flow(
    [
      {
        id: "s",
        type: "auto.trigger.schedule",
        params: { cron: "0 9 * * *", timezone: "Europe/Paris", audience: { tagsInclude: ["vip"] } },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag } },
    ],
    [["s", "tag"]],
  );

async function statusOf(ids: string[]) {
  const rows = await getDb()
    .select({ id: automations.id, status: automations.status })
    .from(automations)
    .where(inArray(automations.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

async function pendingWaitOf(automationId: string, entityId: string) {
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.entityId, entityId)));
  const waiting = await runInStatus(run!.id, ["waiting"]);
  const [wait] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, waiting.id), eq(automationRunWaits.status, "pending")));
  return { run: waiting, wait: wait! };
}

/** Time passing: the wait falls due `ago` ms ago, and its job with it. */
async function fallDue(waitId: string, ago: number) {
  const at = new Date(Date.now() - ago).toISOString();
  await getDb().execute(
    sql`update automation_run_waits set resume_at = ${at}::timestamptz where id = ${waitId}`,
  );
  await getDb().execute(
    sql`update graphile_worker._private_jobs set run_at = ${at}::timestamptz where key = ${waitId}`,
  );
}

const jobOf = async (waitId: string) =>
  getDb().execute<{ run_at: Date }>(
    sql`select run_at from graphile_worker._private_jobs where key = ${waitId} and locked_at is null`,
  );

describe("the emergency brake", () => {
  test("viewers and editors get a 403; anyone may read it; releasing a brake that is off is a 409", async () => {
    for (const role of ["viewer", "editor"] as const) {
      for (const route of [pauseAllRoute, resumeAllRoute]) {
        const res = await call<ErrorReply>(route, { method: "POST", key: shop.keys[role] });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toBe("Only an admin can do this.");
      }
    }
    const read = await call<{ brake: BrakeState; impact: BrakeImpact }>(brakeRoute, {
      key: shop.keys.viewer,
    });
    expect(read.status).toBe(200);
    expect(read.body.brake.on).toBe(false);
    const off = await call<ErrorReply>(resumeAllRoute, { method: "POST", key: shop.keys.admin });
    expect(off.status).toBe(409);
    expect(off.body.error.message).toBe("The emergency brake is not on.");
  });

  test("pause-all then resume-all restores exactly the earlier active set; another shop is untouched", async () => {
    const a = await publishFlow(shop.keys.editor, "Brake A", daily("a"));
    const b = await publishFlow(shop.keys.editor, "Brake B", waitThenTag("b"));
    const c = await publishFlow(shop.keys.editor, "Brake C (paused before)", daily("c"));
    const d = await publishFlow(other.keys.editor, "Other shop's", daily("d"));
    expect(
      (await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: c } })).status,
    ).toBe(200);

    const before = await call<{ impact: BrakeImpact }>(brakeRoute, { key: shop.keys.viewer });
    expect(before.body.impact).toMatchObject({ activeAutomations: 2, schedules: 1 });
    expect(before.body.impact.sentence).toBe(
      "2 active automations; 0 runs waiting will hold until you resume; schedules will not fire.",
    );

    const pulled = await call<{ brake: BrakeState }>(pauseAllRoute, { method: "POST", key: shop.keys.admin });
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
    expect(pulled.body.brake).toMatchObject({
      on: true,
      automations: 2,
      engagedBy: expect.stringContaining("API key"),
    });
    expect(await statusOf([a, b, c, d])).toEqual({
      [a]: "paused",
      [b]: "paused",
      [c]: "paused",
      [d]: "active",
    });
    // Off means off: no schedule row, so nothing fires; the other shop's still fires.
    const schedules = await getDb()
      .select({ id: automationSchedules.automationId })
      .from(automationSchedules)
      .where(inArray(automationSchedules.automationId, [a, c, d]));
    expect(schedules.map((s) => s.id)).toEqual([d]);
    // Remembered durably, per shop.
    const [row] = await getDb()
      .select()
      .from(automationBrakes)
      .where(eq(automationBrakes.tenantId, shop.tenant.id));
    expect(new Set(row!.automationIds)).toEqual(new Set([a, b]));
    expect(
      await getDb().select().from(automationBrakes).where(eq(automationBrakes.tenantId, other.tenant.id)),
    ).toEqual([]);

    const again = await call<ErrorReply>(pauseAllRoute, { method: "POST", key: shop.keys.admin });
    expect(again.status).toBe(409);

    const released = await call<{ brake: BrakeState; resumedAutomations: number }>(resumeAllRoute, {
      method: "POST",
      key: shop.keys.admin,
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body).toMatchObject({ brake: { on: false }, resumedAutomations: 2 });
    expect(await statusOf([a, b, c, d])).toEqual({
      [a]: "active",
      [b]: "active",
      [c]: "paused",
      [d]: "active",
    });
    const back = await getDb()
      .select({ id: automationSchedules.automationId })
      .from(automationSchedules)
      .where(inArray(automationSchedules.automationId, [a, c]));
    expect(back.map((s) => s.id)).toEqual([a]);

    const audit = await getDb()
      .select({ action: auditEvents.action, detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, shop.tenant.id), eq(auditEvents.subjectType, "shop")))
      .orderBy(auditEvents.createdAt);
    expect(audit.map((e) => e.action)).toEqual(["automations.brake_engaged", "automations.brake_released"]);
    expect(audit[0]!.detail).toMatchObject({ automations: 2 });
    // Tidy up for the next test: one active automation fewer to count.
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: a } });
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: b } });
  });

  test("waits that fall due during the brake hold, then run after it, once each, in the order they fell due", async () => {
    const id = await publishFlow(shop.keys.editor, "Brake waits", waitThenTag("after-brake"));
    await placeOrder(shop, "brake-1");
    await placeOrder(shop, "brake-2");
    const first = await pendingWaitOf(id, "brake-1");
    const second = await pendingWaitOf(id, "brake-2");
    // The other shop's waiting run is untouched by this shop's brake.
    const theirs = await publishFlow(other.keys.editor, "Other shop's waits", waitThenTag("theirs"));
    await placeOrder(other, "their-1");
    const their = await pendingWaitOf(theirs, "their-1");

    const impact = await call<{ impact: BrakeImpact }>(brakeRoute, { key: shop.keys.viewer });
    expect(impact.body.impact.sentence).toBe(
      "1 active automation; 2 runs waiting will hold until you resume; no schedule is due to fire.",
    );
    expect((await call(pauseAllRoute, { method: "POST", key: shop.keys.admin })).status).toBe(200);
    // The Waiting list says it holds, not that it will be cancelled as a paused automation's would.
    const fates = await waitFates(shop.tenant.id, [first.wait]);
    expect(fates.get(first.wait.id)).toEqual({ continues: true, note: BRAKE_HOLD_NOTE });

    // Both fall due while the brake is on (the second a minute after the first); the worker takes
    // their jobs and leaves the waits pending. The other shop's runs on.
    await fallDue(second.wait.id, 60_000);
    await fallDue(first.wait.id, 120_000);
    await fallDue(their.wait.id, 60_000);
    await runInStatus(their.run.id, ["succeeded"]);
    for (const w of [first.wait, second.wait]) {
      await until(
        () => jobOf(w.id),
        (jobs) => jobs.length === 0,
        { timeoutMs: 15_000, what: "the job to be taken" },
      );
    }
    // The reaper neither fails them as overdue nor gives them a job back while the brake holds them.
    await getDb().execute(
      sql`update automation_run_waits set resume_at = now() - interval '2 hours' where id = ${first.wait.id}`,
    );
    await reapRuns();
    for (const w of [first.wait, second.wait]) {
      const [now] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.id, w.id));
      expect(now!.status).toBe("pending");
      expect(await jobOf(w.id)).toEqual([]);
    }
    expect((await runInStatus(first.run.id, ["waiting"])).status).toBe("waiting");

    // Released with the worker stopped, to read the jobs it gives back: one per wait, at its due time.
    await worker.stop();
    const released = await call<{ heldWaits: number }>(resumeAllRoute, {
      method: "POST",
      key: shop.keys.admin,
    });
    expect(released.body.heldWaits).toBe(2);
    const jobs = await getDb().execute<{ key: string; run_at: Date }>(
      sql`select key, run_at from graphile_worker._private_jobs where key in (${first.wait.id}, ${second.wait.id}) order by run_at, id`,
    );
    expect(jobs.map((j) => j.key)).toEqual([first.wait.id, second.wait.id]);
    await worker.start();

    for (const { run } of [first, second]) {
      const done = await runInStatus(run.id, ["succeeded", "failed", "partial", "cancelled"]);
      expect(done.status).toBe("succeeded");
      expect(done.legs).toBe(2);
      const tags = await getDb()
        .select()
        .from(automationRunSteps)
        .where(and(eq(automationRunSteps.runId, run.id), eq(automationRunSteps.nodeId, "tag")));
      expect(tags).toHaveLength(1);
    }
  }, 120_000);
});
