import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { reapRuns, replayStrandedLegs, WATCHDOG_RUN_REASON } from "@/lib/automations/engine/reap";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

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

  expect(await reapRuns()).toEqual({
    failed: 1,
    requeued: 1,
    overdueWaits: 0,
    rescheduledWaits: 0,
    eventWaitsWoken: 0,
  });

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

test("the reaper replays a leg stranded by a settle that overwrote its claim: waiting run, its wait already resumed, no job", async () => {
  const shop = await createShop();
  const automationId = await publishFlow(
    shop.keys.editor,
    "Stranded",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "wait", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "x" } },
      ],
      [
        ["t", "wait"],
        ["wait", "tag"],
      ],
    ),
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "stranded",
    { number: "s", status: "pending", total: 1, currency: "EUR" },
    "test",
  );
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId));
  await getDb().execute(sql`delete from graphile_worker._private_jobs`);
  const twoMinutesAgo = new Date(Date.now() - 120_000);
  // What the race leaves: the wait claimed for leg 2, the run written back to `waiting`, and the
  // job that claimed it gone (its worker died, the redelivered job found nothing to do).
  const [wait] = await getDb()
    .insert(automationRunWaits)
    .values({
      tenantId: shop.tenant.id,
      runId: run!.id,
      automationId,
      automationVersion: run!.automationVersion,
      nodeId: "wait",
      nodeType: "auto.control.wait",
      leg: 1,
      resumeLeg: 2,
      event: run!.event,
      kind: "delay",
      status: "resumed",
      resumeAt: twoMinutesAgo,
      resolvedAt: twoMinutesAgo,
    })
    .returning();
  await getDb()
    .update(automationRuns)
    .set({ status: "waiting", legs: 2, updatedAt: twoMinutesAgo })
    .where(eq(automationRuns.id, run!.id));

  expect(await replayStrandedLegs()).toBe(1);
  const [after] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(after!.status).toBe("running");
  const jobs = await getDb().execute<{ key: string; task: string }>(
    sql`select key, task_identifier as task from graphile_worker.jobs`,
  );
  expect(jobs).toEqual([{ key: wait!.id, task: "automation_resume" }]);
  // Once is enough: the run is running again and its wait has a job.
  expect(await replayStrandedLegs()).toBe(0);
});
