import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { ingestEvents } from "@/lib/automations/engine/start/api";
import { reapRuns } from "@/lib/automations/engine/reap";
import { setCaps } from "@/lib/automations/lifecycle/set-caps";
import { settleHeldRun } from "@/lib/automations/runs/held";
import { rerunRun } from "@/lib/automations/runs/rerun";
import { fanOut } from "@/lib/automations/schedules/fanout";
import { runNow } from "@/lib/automations/schedules/manage";
import { getDb } from "@/lib/db/client";
import { automationRuns, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

// Every way a run starts goes through engine/start/, so every first-leg job carries its shop for
// fair share (lib/queue/fair-share.ts). No worker runs in this file: the jobs stay queued to be read.

let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});

//  order_created ──▶ add_tag(new)
const tagOnCreated = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "a", type: "auto.action.add_tag", params: { tag: "new" } },
  ],
  [["t", "a"]],
);

//  order_paid ──▶ add_note(Thanks)
const thankOnPaid = flow(
  [
    { id: "t", type: "auto.trigger.order_paid" },
    { id: "a", type: "auto.action.add_note", params: { body: "Thanks" } },
  ],
  [["t", "a"]],
);

//  schedule(cron[, audience]) ──▶ add_tag(newsletter)   (entityless: create_task)
const scheduled = (audience?: Record<string, unknown>) =>
  flow(
    [
      { id: "t", type: "auto.trigger.schedule", params: { cron: "0 9 * * 1", timezone: "UTC", audience } },
      audience
        ? { id: "a", type: "auto.action.add_tag", params: { tag: "newsletter" } }
        : { id: "a", type: "auto.action.create_task", params: { title: "Weekly stock check" } },
    ],
    [["t", "a"]],
  );

/** The runs of an automation, oldest first. */
const runsOf = (automationId: string) =>
  getDb()
    .select({ id: automationRuns.id, status: automationRuns.status, heldReason: automationRuns.heldReason })
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId))
    .orderBy(automationRuns.createdAt, automationRuns.eventId);

const idsOf = async (automationId: string) => (await runsOf(automationId)).map((r) => r.id);

/** The shop each run's queued `automation_execute` job is tagged with (absent: the run has no job). */
async function jobShops(runIds: string[]): Promise<Map<string, string | null>> {
  if (runIds.length === 0) return new Map();
  const rows = await getDb().execute<{ key: string; tenant: string | null }>(sql`
    select j.key, j.payload->>'tenantId' as tenant
    from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id and t.identifier = 'automation_execute'
    where j.key in (select 'run:' || r.id from json_array_elements_text(${JSON.stringify(runIds)}::json) as r(id))`);
  return new Map(rows.map((r) => [r.key.slice("run:".length), r.tenant]));
}

/** Expects every run of `runIds` to have one queued job, tagged with `owner`'s shop. */
async function expectJobsOf(owner: TestShop, runIds: string[]) {
  expect(runIds.length).toBeGreaterThan(0);
  const shops = await jobShops(runIds);
  expect(runIds.map((id) => shops.get(id))).toEqual(runIds.map(() => owner.tenant.id));
}

async function placeOrder(owner: TestShop, id: string) {
  await upsertEntity(
    owner.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "pending", total: 10, currency: "EUR" },
    "test",
  );
}

describe("every source's automation_execute job carries its shop", () => {
  test("a record change and an API ingest", async () => {
    const created = await publishFlow(shop.keys.editor, "Tag new orders", tagOnCreated);
    const paid = await publishFlow(shop.keys.editor, "Thank payers", thankOnPaid);
    const elsewhere = await publishFlow(other.keys.editor, "Tag new orders", tagOnCreated);
    await placeOrder(shop, "j-1");
    await placeOrder(other, "j-1");
    await ingestEvents(shop.tenant.id, [
      { id: "j-paid-1", type: "order.paid", domain: "order", entityId: "j-1" },
    ]);
    await expectJobsOf(shop, await idsOf(created));
    await expectJobsOf(shop, await idsOf(paid));
    // The same change in another shop is tagged with that shop, not the first.
    await expectJobsOf(other, await idsOf(elsewhere));
  });

  test("a schedule's fan-out, with and without an audience", async () => {
    await getDb()
      .insert(entities)
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          tenantId: shop.tenant.id,
          domain: "customer",
          id: `fan-${i}`,
          data: {
            email: `fan${i}@example.test`,
            name: "",
            ordersCount: 0,
            totalSpent: 0,
            acceptsMarketing: true,
          },
          tags: [],
        })),
      );
    const caller = await callerOf(shop, "editor");
    const entityless = await publishFlow(shop.keys.editor, "Stock check", scheduled());
    const newsletter = await publishFlow(
      shop.keys.editor,
      "Newsletter",
      scheduled({ acceptsMarketing: true }),
    );
    await fanOut((await runNow(caller, entityless)).id);
    const fire = await runNow(caller, newsletter);
    await fanOut(fire.id, 2);
    await expectJobsOf(shop, await idsOf(entityless));
    const audience = await runsOf(newsletter);
    expect(audience).toHaveLength(5);
    // Each run keeps the event toRunEvent makes, about its customer.
    const [first] = await getDb()
      .select({ event: automationRuns.event })
      .from(automationRuns)
      .where(and(eq(automationRuns.automationId, newsletter), eq(automationRuns.entityId, "fan-0")));
    expect(first!.event).toEqual({
      id: `schedule:${fire.id}:fan-0`,
      type: "schedule.fired",
      domain: "customer",
      entityId: "fan-0",
      entityStatus: null,
      payload: { fireId: fire.id, nodeId: "t", scheduledFor: fire.fireAt, manual: true },
      occurredAt: fire.fireAt,
    });
    await expectJobsOf(
      shop,
      audience.map((r) => r.id),
    );
  });

  test("a re-run, a release of a held run, and the watchdog's job for a run whose job vanished", async () => {
    const caller = await callerOf(shop, "editor");
    const id = await publishFlow(shop.keys.editor, "Thank once an hour", thankOnPaid);
    await setCaps(caller, id, { maxRunsPerHour: 1 });
    await placeOrder(shop, "j-2");
    await ingestEvents(shop.tenant.id, [
      { id: "j-2-a", type: "order.paid", domain: "order", entityId: "j-2" },
      { id: "j-2-b", type: "order.paid", domain: "order", entityId: "j-2" },
    ]);
    const [first, held] = await runsOf(id);
    expect(first).toMatchObject({ status: "queued", heldReason: null });
    expect(held!.status).toBe("held");
    expect((await jobShops([held!.id])).has(held!.id)).toBe(false);

    // A release is a person's "yes, this one too": it starts although the hour's cap is used up.
    const released = await settleHeldRun(caller, held!.id, "release");
    expect(released.runIds).toEqual([held!.id]);
    await expectJobsOf(shop, [held!.id]);

    // A re-run is a person's explicit action too: not held by the full cap either.
    await getDb().update(automationRuns).set({ status: "failed" }).where(eq(automationRuns.id, first!.id));
    const rerun = await rerunRun(caller, first!.id, {});
    expect(rerun.run.status).toBe("queued");
    await expectJobsOf(shop, [rerun.run.id]);
    expect((await runsOf(id)).filter((r) => r.status === "held")).toEqual([]);

    // The reaper's watchdog re-adds a vanished job through the same helper, tagged the same way.
    await getDb().execute(
      sql`delete from graphile_worker._private_jobs where key = ${`run:${rerun.run.id}`}`,
    );
    await getDb()
      .update(automationRuns)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(and(eq(automationRuns.tenantId, shop.tenant.id), inArray(automationRuns.id, [rerun.run.id])));
    await reapRuns();
    await expectJobsOf(shop, [rerun.run.id]);
  });
});
