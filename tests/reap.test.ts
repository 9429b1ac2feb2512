import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { reapRuns, WATCHDOG_RUN_REASON } from "@/lib/automations/engine/reap";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop } from "./fixtures";
import { flow, publishFlow } from "./flows";

test("the reaper fails lost running runs, leaves waiting runs alone, and re-enqueues queued runs whose job vanished", async () => {
  const shop = await createShop();
  const automationId = await publishFlow(
    shop.keys.editor,
    "Reap",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "x" } },
      ],
      [["t", "tag"]],
    ),
  );
  for (const id of ["lost", "parked", "orphan", "fresh"]) {
    await upsertEntity(
      shop.tenant.id,
      "order",
      id,
      { number: id, status: "pending", total: 1, currency: "EUR" },
      "test",
    );
  }
  const runs = Object.fromEntries(
    (
      await getDb()
        .select({ id: automationRuns.id, entityId: automationRuns.entityId })
        .from(automationRuns)
        .where(eq(automationRuns.automationId, automationId))
    ).map((r) => [r.entityId, r.id]),
  );
  const hourAgo = new Date(Date.now() - 3_600_000);
  // No worker runs in this file: drop the jobs and age the runs by hand.
  await getDb().execute(sql`delete from graphile_worker._private_jobs`);
  await getDb()
    .update(automationRuns)
    .set({ status: "running", updatedAt: hourAgo })
    .where(eq(automationRuns.id, runs.lost!));
  await getDb()
    .update(automationRuns)
    .set({ status: "waiting", updatedAt: hourAgo })
    .where(eq(automationRuns.id, runs.parked!));
  await getDb().update(automationRuns).set({ createdAt: hourAgo }).where(eq(automationRuns.id, runs.orphan!));

  expect(await reapRuns()).toEqual({ failed: 1, requeued: 1, overdueWaits: 0, rescheduledWaits: 0 });

  const status = async (id: string) =>
    (await getDb().select().from(automationRuns).where(eq(automationRuns.id, id)))[0]!;
  expect(await status(runs.lost!)).toMatchObject({
    status: "failed",
    error: "The run stopped without finishing (its worker was lost).",
  });
  expect((await status(runs.parked!)).status).toBe("waiting");
  expect((await status(runs.fresh!)).status).toBe("queued");
  // The watchdog says so in the run's history.
  expect(await status(runs.orphan!)).toMatchObject({ status: "queued", reason: WATCHDOG_RUN_REASON });
  const jobs = await getDb().execute<{ key: string }>(sql`select key from graphile_worker._private_jobs`);
  expect(jobs.map((j) => j.key)).toEqual([`run:${runs.orphan}`]);
});
