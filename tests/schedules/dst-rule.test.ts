import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { POST as previewRoute } from "@/app/api/v1/schedules/preview/route";
import { scheduleTick } from "@/lib/automations/schedules/tick";
import { getDb } from "@/lib/db/client";
import { automationSchedules, scheduleFires } from "@/lib/db/schema";
import { nextFireAfter } from "@/lib/time/cron";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";

// Issue 53, item 4: the heartbeat fires a schedule under its own DST rule, so its fan-outs (one
// per fire time) follow it; the preview names the next day a clock change meets it. No worker:
// the fires are what is checked, not the runs they start.

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});

const DST = { gap: "skip", repeat: "twice" } as const;
const nightly = flow(
  [
    {
      id: "t",
      type: "auto.trigger.schedule",
      params: { cron: "30 2 * * *", timezone: "Europe/Paris", dst: DST },
    },
    { id: "a", type: "auto.action.create_task", params: { title: "Night check" } },
  ],
  [["t", "a"]],
);

async function tickThrough(id: string, fromIso: string, ticks: string[]) {
  await getDb()
    .update(automationSchedules)
    .set({ nextFireAt: nextFireAfter("30 2 * * *", "Europe/Paris", new Date(fromIso), DST) })
    .where(eq(automationSchedules.automationId, id));
  for (const at of ticks) await scheduleTick(new Date(at));
}

test("skip and twice: no fire on the spring-forward day, two on the fall-back day", async () => {
  const id = await publishFlow(shop.keys.editor, "Nightly Paris, DST rule", nightly);
  // Spring, 29 March 2026: 02:30 does not exist; skipped, the next fire is 02:30 CEST on the 30th.
  await tickThrough(id, "2026-03-28T12:00:00Z", [
    "2026-03-29T01:00:05Z",
    "2026-03-29T01:30:05Z",
    "2026-03-30T00:30:05Z",
  ]);
  // Autumn, 25 October 2026: 02:30 happens twice; both fire, each once.
  await tickThrough(id, "2026-10-24T12:00:00Z", [
    "2026-10-25T00:30:05Z",
    "2026-10-25T00:31:05Z",
    "2026-10-25T01:30:05Z",
    "2026-10-25T01:31:05Z",
  ]);
  const fires = await getDb()
    .select({ fireAt: scheduleFires.fireAt, status: scheduleFires.status })
    .from(scheduleFires)
    .where(eq(scheduleFires.automationId, id))
    .orderBy(scheduleFires.fireAt);
  expect(fires.map((f) => f.fireAt.toISOString())).toEqual([
    "2026-03-30T00:30:00.000Z",
    "2026-10-25T00:30:00.000Z",
    "2026-10-25T01:30:00.000Z",
  ]);
  const [row] = await getDb()
    .select()
    .from(automationSchedules)
    .where(eq(automationSchedules.automationId, id));
  expect(row!.nextFireAt!.toISOString()).toBe("2026-10-26T01:30:00.000Z");
});

test("the preview takes the rule and names the next day a clock change meets the schedule", async () => {
  const res = await call<{
    nextFireTimes: string[];
    dstDay: { local: string; fires: string[]; sentence: string };
  }>(previewRoute, {
    method: "POST",
    key: shop.keys.viewer,
    body: {
      cron: "30 2 * * *",
      timezone: "Europe/Paris",
      dst: { gap: "shift" },
      from: "2026-03-28T12:00:00Z",
      count: 2,
    },
  });
  expect(res.status).toBe(200);
  expect(res.body.nextFireTimes).toEqual(["2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z"]);
  expect(res.body.dstDay).toEqual({
    kind: "gap",
    local: "2026-03-29T02:30",
    fires: ["2026-03-29T01:30:00.000Z"],
    sentence: "On 29 March 2026 02:30 does not exist in Paris: the run moves to 03:30.",
  });
  const bad = await call(previewRoute, {
    method: "POST",
    key: shop.keys.viewer,
    body: { cron: "30 2 * * *", timezone: "Europe/Paris", dst: { gap: "later" } },
  });
  expect(bad.status).toBe(422);
});
