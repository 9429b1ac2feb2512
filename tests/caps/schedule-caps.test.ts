import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, test } from "vitest";
import { hourlyHeldReason, perRecordHeldReason } from "@/lib/automations/caps/caps";
import { setCaps } from "@/lib/automations/lifecycle/set-caps";
import { settleHeldRuns } from "@/lib/automations/runs/held";
import { fanOut } from "@/lib/automations/schedules/fanout";
import { runNow } from "@/lib/automations/schedules/manage";
import { getDb } from "@/lib/db/client";
import { auditEvents, automationRuns, automations, entities, scheduleFires } from "@/lib/db/schema";
import type { Caller } from "@/lib/identity/caller";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { workerForFile } from "@/tests/helpers/worker";

// A schedule's fan-out is a trigger like any other (engine/start/schedule.ts): its runs past a cap
// are held with their reason and no job, the rest run, and a released one is not held again.

let shop: TestShop;
let caller: Caller;
// A shop per test: each counts its own runs against its own caps.
beforeEach(async () => {
  shop = await createShop();
  caller = await callerOf(shop, "editor");
});
const worker = workerForFile();

//  schedule(audience: accepts marketing) ──▶ add_tag(newsletter)
const newsletter = flow(
  [
    {
      id: "t",
      type: "auto.trigger.schedule",
      params: { cron: "0 9 * * 1", timezone: "UTC", audience: { acceptsMarketing: true } },
    },
    { id: "a", type: "auto.action.add_tag", params: { tag: "newsletter" } },
  ],
  [["t", "a"]],
);

async function customers(n: number) {
  await getDb()
    .insert(entities)
    .values(
      Array.from({ length: n }, (_, i) => ({
        tenantId: shop.tenant.id,
        domain: "customer",
        id: `cap-${i}`,
        data: {
          email: `cap${i}@example.test`,
          name: "",
          ordersCount: 0,
          totalSpent: 0,
          acceptsMarketing: true,
        },
        tags: [],
      })),
    );
}

const runsOf = (automationId: string) =>
  getDb()
    .select({
      id: automationRuns.id,
      status: automationRuns.status,
      entityId: automationRuns.entityId,
      heldReason: automationRuns.heldReason,
      releasedAt: automationRuns.releasedAt,
    })
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId))
    .orderBy(automationRuns.entityId, automationRuns.createdAt);

/** How many of the runs have a first-leg job queued. */
async function withJobs(runIds: string[]): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from graphile_worker._private_jobs
    where key in (select 'run:' || r.id from json_array_elements_text(${JSON.stringify(runIds)}::json) as r(id))`);
  return row!.n;
}

const tagged = async () => {
  const rows = await getDb()
    .select({ id: entities.id })
    .from(entities)
    .where(and(eq(entities.tenantId, shop.tenant.id), sql`'newsletter' = any(${entities.tags})`))
    .orderBy(entities.id);
  return rows.map((r) => r.id);
};

describe("a schedule's fan-out over its automation's caps", () => {
  test("past maxRunsPerHour its runs are held with the reason and no job, the rest run; released, they run and are not held again", async () => {
    await customers(8);
    const id = await publishFlow(shop.keys.editor, "Newsletter", newsletter);
    await setCaps(caller, id, { maxRunsPerHour: 5 });

    // With the worker stopped, the queue shows which runs got a job: batches of 3, so the hour's
    // count carries from one batch to the next.
    await worker.stop();
    const fire = await runNow(caller, id);
    await fanOut(fire.id, 3);
    const runs = await runsOf(id);
    expect(runs).toHaveLength(8);
    const started = runs.filter((r) => r.status === "queued");
    const held = runs.filter((r) => r.status === "held");
    expect(started.map((r) => r.entityId)).toEqual(["cap-0", "cap-1", "cap-2", "cap-3", "cap-4"]);
    expect(held.map((r) => r.heldReason)).toEqual(Array(3).fill(hourlyHeldReason(5)));
    expect(await withJobs(started.map((r) => r.id))).toBe(5);
    expect(await withJobs(held.map((r) => r.id))).toBe(0);
    // Capped, the batch is planned in the app, but each run keeps the same event as uncapped.
    const [kept] = await getDb()
      .select({ event: automationRuns.event })
      .from(automationRuns)
      .where(eq(automationRuns.id, held[0]!.id));
    expect(kept!.event).toEqual({
      id: `schedule:${fire.id}:cap-5`,
      type: "schedule.fired",
      domain: "customer",
      entityId: "cap-5",
      entityStatus: null,
      payload: { fireId: fire.id, nodeId: "t", scheduledFor: fire.fireAt, manual: true },
      occurredAt: fire.fireAt,
    });
    const [done] = await getDb().select().from(scheduleFires).where(eq(scheduleFires.id, fire.id));
    expect(done).toMatchObject({ status: "done", runsCreated: 8 });

    await worker.start();
    await until(
      () => runsOf(id),
      (rs) => rs.filter((r) => r.status === "succeeded").length === 5,
      { timeoutMs: 15_000, what: "the 5 runs under the cap to succeed" },
    );
    expect(await tagged()).toEqual(["cap-0", "cap-1", "cap-2", "cap-3", "cap-4"]);

    // Released by a person, with the hour's cap still used up: they start, and none is held again.
    const released = await settleHeldRuns(caller, { automationId: id }, "release");
    expect(released.impact).toBe("3 held runs released; they start now.");
    const after = await until(
      () => runsOf(id),
      (rs) => rs.every((r) => r.status === "succeeded"),
      { timeoutMs: 15_000, what: "the released runs to succeed" },
    );
    expect(after.filter((r) => r.releasedAt !== null).map((r) => r.entityId)).toEqual([
      "cap-5",
      "cap-6",
      "cap-7",
    ]);
    expect(await tagged()).toHaveLength(8);
  });

  test("a second Run now within maxPerRecord's window holds every customer's run for their record", async () => {
    await customers(3);
    const id = await publishFlow(shop.keys.editor, "Newsletter once a day", newsletter);
    await setCaps(caller, id, { maxPerRecord: { count: 1, hours: 24 } });
    await fanOut((await runNow(caller, id)).id);
    await until(
      () => runsOf(id),
      (rs) => rs.length === 3 && rs.every((r) => r.status === "succeeded"),
      { timeoutMs: 15_000, what: "the first fire's runs to succeed" },
    );
    await fanOut((await runNow(caller, id)).id);
    const runs = await runsOf(id);
    const held = runs.filter((r) => r.status === "held");
    expect(held.map((r) => r.entityId)).toEqual(["cap-0", "cap-1", "cap-2"]);
    expect(new Set(held.map((r) => r.heldReason))).toEqual(
      new Set([perRecordHeldReason({ count: 1, hours: 24 })]),
    );
    expect(await withJobs(held.map((r) => r.id))).toBe(0);
  });

  test("with pauseOnStorm, the storm a fan-out makes pauses the automation once the runs it let through have started", async () => {
    await customers(6);
    const id = await publishFlow(shop.keys.editor, "Storm-guarded newsletter", newsletter);
    await setCaps(caller, id, { maxRunsPerHour: 2, pauseOnStorm: true });
    // The whole fan-out first (the pause would otherwise stop it part-way), then the worker.
    await worker.stop();
    await fanOut((await runNow(caller, id)).id, 2);
    await worker.start();
    const [row] = await until(
      () => getDb().select({ status: automations.status }).from(automations).where(eq(automations.id, id)),
      ([a]) => a?.status === "paused",
      { timeoutMs: 15_000, what: "the automation to be paused" },
    );
    expect(row?.status).toBe("paused");
    const runs = await runsOf(id);
    expect(runs.filter((r) => r.status === "held")).toHaveLength(4);
    expect(runs.filter((r) => r.status === "succeeded")).toHaveLength(2);
    const [audit] = await getDb()
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, id), eq(auditEvents.action, "automation.paused_on_storm")));
    expect(audit?.detail).toMatchObject({ maxRunsPerHour: 2, held: 4 });
  });
});
