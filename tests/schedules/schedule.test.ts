import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as activateRoute } from "@/app/api/v1/automations/[id]/activate/route";
import { GET as firesRoute } from "@/app/api/v1/automations/[id]/fires/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as runNowRoute } from "@/app/api/v1/automations/[id]/run-now/route";
import { POST as previewRoute } from "@/app/api/v1/schedules/preview/route";
import { audienceSize } from "@/lib/automations/schedules/audience";
import { nextFireAfter } from "@/lib/time/cron";
import { FANOUT_CANCELLED, fanOut } from "@/lib/automations/schedules/fanout";
import { MISSED_LATE, MISSED_SUPERSEDED, scheduleTick } from "@/lib/automations/schedules/tick";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationSchedules, entities, scheduleFires } from "@/lib/db/schema";
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

//  schedule(cron, zone[, audience]) ──▶ add_note(...)      (entityless: create_task)
const scheduled = (cron: string, timezone = "UTC", audience?: Record<string, unknown>) =>
  flow(
    [
      {
        id: "t",
        type: "auto.trigger.schedule",
        params: { cron, timezone, ...(audience ? { audience } : {}) },
      },
      audience
        ? { id: "a", type: "auto.action.add_tag", params: { tag: "newsletter" } }
        : { id: "a", type: "auto.action.create_task", params: { title: "Weekly stock check" } },
    ],
    [["t", "a"]],
  );

async function scheduleRow(automationId: string) {
  const [row] = await getDb()
    .select()
    .from(automationSchedules)
    .where(eq(automationSchedules.automationId, automationId));
  return row ?? null;
}

async function firesOf(automationId: string) {
  return getDb()
    .select()
    .from(scheduleFires)
    .where(eq(scheduleFires.automationId, automationId))
    .orderBy(scheduleFires.fireAt);
}

async function setNextFire(automationId: string, at: Date) {
  await getDb()
    .update(automationSchedules)
    .set({ nextFireAt: at })
    .where(eq(automationSchedules.automationId, automationId));
}

describe("next_fire_at follows the automation", () => {
  test("publish stores the next fire time; pause removes it (off means off); activate computes it afresh", async () => {
    const before = new Date();
    const id = await publishFlow(
      shop.keys.editor,
      "Daily 02:30 NY",
      scheduled("30 2 * * *", "America/New_York"),
    );
    const stored = await scheduleRow(id);
    expect(stored).toMatchObject({ cron: "30 2 * * *", timezone: "America/New_York" });
    expect(stored!.nextFireAt!.toISOString()).toBe(
      nextFireAfter("30 2 * * *", "America/New_York", before)!.toISOString(),
    );

    expect((await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id } })).status).toBe(
      200,
    );
    expect(await scheduleRow(id)).toBeNull();
    // A fire time passing while paused: the tick has nothing to fire.
    await scheduleTick(new Date(Date.now() + 3 * 86_400_000));
    expect(await firesOf(id)).toEqual([]);

    expect(
      (await call(activateRoute, { method: "POST", key: shop.keys.editor, params: { id } })).status,
    ).toBe(200);
    expect((await scheduleRow(id))!.nextFireAt!.getTime()).toBeGreaterThan(Date.now());
  });

  test("republishing a changed schedule moves the next fire time; an unchanged one keeps it", async () => {
    const id = await publishFlow(shop.keys.editor, "Hourly", scheduled("0 * * * *"));
    const kept = new Date(Date.now() - 30_000); // a fire time the tick has not claimed yet
    await setNextFire(id, kept);
    const rename = await call(draftRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { name: "Hourly check" },
    });
    expect(rename.status).toBe(200);
    await call(publishRoute, { method: "POST", key: shop.keys.editor, params: { id }, body: {} });
    expect((await scheduleRow(id))!.nextFireAt!.toISOString()).toBe(kept.toISOString());

    const changed = await call(draftRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { graph: scheduled("15 6 * * 1", "Europe/London") },
    });
    expect(changed.status).toBe(200);
    const published = await call<{ automation: { version: number } }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: {},
    });
    expect(published.body.automation.version).toBe(3);
    const row = await scheduleRow(id);
    expect(row).toMatchObject({ cron: "15 6 * * 1", timezone: "Europe/London" });
    expect(row!.nextFireAt!.getTime()).toBeGreaterThan(Date.now());
  });

  test("an invalid cron is a ready issue in plain English and blocks publishing", async () => {
    const res = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: {
        id: (
          await call<{ id: string }>((await import("@/app/api/v1/automations/route")).POST, {
            method: "POST",
            key: shop.keys.editor,
            body: { name: "Broken", graph: scheduled("0 25 * * *", "Europe/Paris") },
          })
        ).body.id,
      },
      body: {},
    });
    expect(res.status).toBe(422);
    expect(res.body.error.issues).toEqual([
      expect.objectContaining({
        nodeId: "t",
        message: "On a schedule: cron '0 25 * * *': hour must be 0–23, or a list, range or */step of them.",
      }),
    ]);
  });
});

describe("the heartbeat", () => {
  test("two concurrent ticks fire a due schedule once, and its one entityless run settles", async () => {
    const id = await publishFlow(shop.keys.editor, "Every 10 minutes", scheduled("*/10 * * * *"));
    const due = new Date(Math.floor(Date.now() / 600_000) * 600_000); // the last */10 instant
    await setNextFire(id, due);
    const now = new Date(due.getTime() + 20_000);
    const results = await Promise.all([scheduleTick(now), scheduleTick(now), scheduleTick(now)]);
    expect(results.map((r) => r.fired).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);

    const fires = await firesOf(id);
    expect(fires).toHaveLength(1);
    expect(fires[0]).toMatchObject({ kind: "scheduled", fireAt: due });
    const runs = await settledRuns(id, 1);
    expect(runs.map((r) => r.status)).toEqual(["succeeded"]);
    const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
    expect(run).toMatchObject({ domain: "schedule", entityId: null, eventId: `schedule:${fires[0]!.id}` });
    expect(run!.event.payload).toMatchObject({ scheduledFor: due.toISOString(), manual: false });
    // Advanced past now; ticking again fires nothing more.
    expect((await scheduleRow(id))!.nextFireAt!.getTime()).toBe(due.getTime() + 600_000);
    await scheduleTick(now);
    expect(await firesOf(id)).toHaveLength(1);
    expect(
      (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id))).length,
    ).toBe(1);
  });

  test("across New York's DST changes, a 02:30 daily schedule fires exactly once a day, minute by minute", async () => {
    const id = await publishFlow(shop.keys.editor, "Nightly NY", scheduled("30 2 * * *", "America/New_York"));
    const tickEveryMinute = async (fromIso: string, toIso: string) => {
      await setNextFire(id, nextFireAfter("30 2 * * *", "America/New_York", new Date(fromIso))!);
      for (let t = new Date(fromIso).getTime(); t <= new Date(toIso).getTime(); t += 60_000) {
        await scheduleTick(new Date(t + 5_000)); // a tick a few seconds after each minute
      }
    };
    // Spring forward, 2026-03-08: 02:30 does not exist; it fires once at 03:00 EDT (07:00Z).
    await tickEveryMinute("2026-03-08T06:00:00Z", "2026-03-08T08:00:00Z");
    // Fall back, 2026-11-01: 01:00–02:00 happens twice; 02:30 EST (07:30Z) fires once.
    await tickEveryMinute("2026-11-01T05:00:00Z", "2026-11-01T08:00:00Z");
    const fires = await firesOf(id);
    expect(fires.map((f) => [f.fireAt.toISOString(), f.status])).toEqual([
      ["2026-03-08T07:00:00.000Z", expect.stringMatching(/pending|done/)],
      ["2026-11-01T07:30:00.000Z", expect.stringMatching(/pending|done/)],
    ]);
    await settledRuns(id, 2);
  });

  test("after downtime, the latest fire within the hour runs once; older ones are recorded as missed", async () => {
    const id = await publishFlow(shop.keys.editor, "Half-hourly", scheduled("*/30 * * * *"));
    const now = new Date(Math.floor(Date.now() / 1_800_000) * 1_800_000 + 60_000); // 1 minute past a */30
    const since = new Date(now.getTime() - 60_000 - 3 * 1_800_000); // down for 3 fire times before the last
    await setNextFire(id, since);
    const result = await scheduleTick(now);
    expect(result.fired).toBeGreaterThanOrEqual(1);

    await settledRuns(id, 1);
    const fires = await firesOf(id);
    const at = (k: number) => new Date(since.getTime() + k * 1_800_000).toISOString();
    expect(fires.map((f) => [f.fireAt.toISOString(), f.status, f.reason])).toEqual([
      [at(0), "missed", MISSED_LATE], // 91 minutes late
      [at(1), "missed", MISSED_LATE], // 61 minutes late
      [at(2), "missed", MISSED_SUPERSEDED], // 31 minutes late: within the hour, but not the latest
      [at(3), "done", null], // the latest: runs once
    ]);

    const listed = await call<{ items: { status: string; reason: string | null; fireAt: string }[] }>(
      firesRoute,
      {
        key: shop.keys.viewer,
        params: { id },
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((f) => f.status)).toEqual(["done", "missed", "missed", "missed"]);
    expect((await call(firesRoute, { key: other.keys.admin, params: { id } })).status).toBe(404);
  });
});

test("the heartbeat gives a pending fire whose fan-out job was lost a new job, and it finishes", async () => {
  const id = await publishFlow(shop.keys.editor, "Lost job", scheduled("0 4 * * *"));
  const [fire] = await getDb()
    .insert(scheduleFires)
    .values({
      tenantId: shop.tenant.id,
      automationId: id,
      nodeId: "t",
      fireAt: new Date(Date.now() - 10 * 60_000),
      kind: "scheduled",
      status: "pending",
      automationVersion: 1,
      createdAt: new Date(Date.now() - 10 * 60_000),
    })
    .returning();
  await scheduleTick();
  const runs = await settledRuns(id, 1);
  expect(runs.map((r) => r.status)).toEqual(["succeeded"]);
  expect((await firesOf(id))[0]).toMatchObject({ id: fire!.id, status: "done", runsCreated: 1 });
});

test("a fan-out stops (cancelled, with the reason) when its automation was paused before it ran", async () => {
  const id = await publishFlow(shop.keys.editor, "Paused mid-fire", scheduled("0 5 * * *"));
  await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id } });
  const [fire] = await getDb()
    .insert(scheduleFires)
    .values({
      tenantId: shop.tenant.id,
      automationId: id,
      nodeId: "t",
      fireAt: new Date(),
      kind: "scheduled",
      status: "pending",
      automationVersion: 1,
    })
    .returning();
  await fanOut(fire!.id);
  expect((await firesOf(id))[0]).toMatchObject({
    status: "cancelled",
    reason: FANOUT_CANCELLED,
    runsCreated: 0,
  });
  expect(await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id))).toEqual([]);
});

describe("audience fan-out and Run now", () => {
  test("one run per matching customer; the audience's size matches; Run now goes through the same path", async () => {
    const day = 86_400_000;
    const customers = Array.from({ length: 30 }, (_, i) => ({
      tenantId: shop.tenant.id,
      domain: "customer",
      id: `c-${String(i).padStart(2, "0")}`,
      data: {
        email: `c${i}@example.test`,
        name: `C ${i}`,
        ordersCount: i % 5,
        totalSpent: i * 10,
        acceptsMarketing: i % 2 === 0,
        createdAt: new Date(Date.now() - i * day).toISOString(),
      },
      tags: i % 3 === 0 ? ["vip"] : i % 7 === 0 ? ["test"] : [],
    }));
    await getDb().insert(entities).values(customers);
    // The other shop's customers never count.
    await getDb()
      .insert(entities)
      .values(customers.map((c) => ({ ...c, tenantId: other.tenant.id })));
    const audience = {
      tagsExclude: ["test"],
      acceptsMarketing: true,
      minTotalSpent: 50,
      createdWithinDays: 25,
    };
    const expected = customers
      .filter(
        (c, i) =>
          !c.tags.includes("test") &&
          c.data.acceptsMarketing &&
          c.data.totalSpent >= 50 &&
          i * day < 25 * day,
      )
      .map((c) => c.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(await audienceSize(getDb(), shop.tenant.id, audience)).toBe(expected.length);
    expect(await audienceSize(getDb(), shop.tenant.id, { tagsInclude: ["vip"] })).toBe(10);

    const id = await publishFlow(
      shop.keys.editor,
      "Newsletter",
      scheduled("0 9 * * 1", "Europe/Paris", audience),
    );
    expect((await call(runNowRoute, { method: "POST", key: shop.keys.viewer, params: { id } })).status).toBe(
      403,
    );
    expect((await call(runNowRoute, { method: "POST", key: other.keys.editor, params: { id } })).status).toBe(
      404,
    );
    const fired = await call<{ id: string; kind: string; status: string }>(runNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(fired.status).toBe(202);
    expect(fired.body).toMatchObject({ kind: "manual", status: "pending" });

    const runs = await settledRuns(id, expected.length);
    expect(runs.every((r) => r.status === "succeeded")).toBe(true);
    const rows = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
    expect(rows.map((r) => r.entityId).sort()).toEqual(expected);
    expect(rows.every((r) => r.domain === "customer")).toBe(true);
    const tagged = await getDb()
      .select({ id: entities.id })
      .from(entities)
      .where(and(eq(entities.tenantId, shop.tenant.id), sql`'newsletter' = any(${entities.tags})`));
    expect(tagged.map((t) => t.id).sort()).toEqual(expected);
    const [fire] = await firesOf(id);
    expect(fire).toMatchObject({ status: "done", runsCreated: expected.length, kind: "manual" });
  });

  test("the preview API gives the next fire times, the DST rule and the audience's size before publishing", async () => {
    const res = await call<{
      problem: string | null;
      nextFireTimes: string[];
      dst: string;
      audienceSize: number;
    }>(previewRoute, {
      method: "POST",
      key: shop.keys.viewer,
      body: {
        cron: "30 2 * * *",
        timezone: "America/New_York",
        from: "2026-03-07T12:00:00Z",
        count: 2,
        audience: { tagsInclude: ["vip"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      problem: null,
      nextFireTimes: ["2026-03-08T07:00:00.000Z", "2026-03-09T06:30:00.000Z"],
      audienceSize: 10,
    });
    expect(res.body.dst).toMatch(/^When clocks change/);
    // The other shop has no vip customers of this shop's.
    const elsewhere = await call<{ audienceSize: number }>(previewRoute, {
      method: "POST",
      key: other.keys.viewer,
      body: { cron: "0 9 * * *", timezone: "UTC", audience: { tagsInclude: ["nobody"] } },
    });
    expect(elsewhere.body.audienceSize).toBe(0);
    const broken = await call<{ problem: string; nextFireTimes: string[] }>(previewRoute, {
      method: "POST",
      key: shop.keys.viewer,
      body: { cron: "0 25 * * *", timezone: "UTC" },
    });
    expect(broken.body).toEqual(
      expect.objectContaining({
        problem: "'0 25 * * *': hour must be 0–23, or a list, range or */step of them.",
        nextFireTimes: [],
      }),
    );
    const bad = await call<ErrorReply>(previewRoute, {
      method: "POST",
      key: shop.keys.viewer,
      body: { cron: 5 },
    });
    expect(bad.status).toBe(422);
  });

  test("Run now refuses what it cannot run, in a sentence", async () => {
    const notScheduled = await publishFlow(
      shop.keys.editor,
      "Not scheduled",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "a", type: "auto.action.add_tag", params: { tag: "x" } },
        ],
        [["t", "a"]],
      ),
    );
    const res = await call<ErrorReply>(runNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: notScheduled },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      "Run now is for scheduled automations, and this one has no schedule.",
    );

    const paused = await publishFlow(shop.keys.editor, "Paused schedule", scheduled("0 9 * * *"));
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: paused } });
    const refused = await call<ErrorReply>(runNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: paused },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/not active/);
  });
});
