import { eq, sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { POST as runNowRoute } from "@/app/api/v1/automations/[id]/run-now/route";
import { getDb } from "@/lib/db/client";
import { entities, scheduleFires } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { call } from "@/tests/helpers/fixtures";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { killWorkers, spawnWorker as spawnWorkerProcess } from "@/tests/helpers/worker-process";

const CUSTOMERS = 4_000;

/** A real worker process, as `npm run worker` starts it, with small fan-out batches. */
const spawnWorker = () =>
  spawnWorkerProcess({ TILLFLOW_WORKER_DEAD_AFTER_MS: "3000", SCHEDULE_FANOUT_BATCH: "50" });

afterAll(killWorkers);

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(query);
  return row!.n;
}

async function fireOf(automationId: string) {
  const [fire] = await getDb()
    .select()
    .from(scheduleFires)
    .where(eq(scheduleFires.automationId, automationId));
  return fire;
}

//  schedule(audience: everyone but 'test') ──▶ add_tag(spring-sale)
test("a fan-out killed with SIGKILL half-way and restarted creates each customer's run exactly once", async () => {
  const shop = await createShop();
  await getDb()
    .insert(entities)
    .values(
      Array.from({ length: CUSTOMERS }, (_, i) => ({
        tenantId: shop.tenant.id,
        domain: "customer",
        id: `f-${String(i).padStart(5, "0")}`,
        data: {
          email: `f${i}@example.test`,
          name: "",
          ordersCount: 0,
          totalSpent: 0,
          acceptsMarketing: true,
        },
        tags: i % 10 === 0 ? ["test"] : [],
      })),
    );
  const matching = CUSTOMERS - CUSTOMERS / 10;
  const automationId = await publishFlow(
    shop.keys.editor,
    "Spring sale",
    flow(
      [
        {
          id: "t",
          type: "auto.trigger.schedule",
          params: { cron: "0 9 1 3 *", timezone: "Europe/Paris", audience: { tagsExclude: ["test"] } },
        },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "spring-sale" } },
      ],
      [["t", "tag"]],
    ),
  );
  const fired = await call(runNowRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: automationId },
  });
  expect(fired.status).toBe(202);

  const first = spawnWorker();
  await expect
    .poll(async () => (await fireOf(automationId))!.runsCreated, { timeout: 60_000, interval: 10 })
    .toBeGreaterThan(400);
  first.kill("SIGKILL");
  await new Promise((r) => first.once("exit", r));
  const atKill = await fireOf(automationId);
  expect(atKill!.status).toBe("pending");
  expect(atKill!.runsCreated).toBeLessThan(matching);

  spawnWorker();
  // Release the dead worker's locked fan-out job now rather than at the next minute's sweep.
  await new Promise((r) => setTimeout(r, 4_000));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);

  await expect
    .poll(async () => (await fireOf(automationId))!.status, { timeout: 120_000, interval: 250 })
    .toBe("done");
  await expect
    .poll(
      () =>
        count(sql`select count(*)::int as n from automation_runs
                  where automation_id = ${automationId} and status in ('succeeded', 'partial', 'failed', 'cancelled')`),
      { timeout: 180_000, interval: 250 },
    )
    .toBe(matching);

  const done = await fireOf(automationId);
  expect(done!.runsCreated).toBe(matching);
  // Exactly one run per matching customer, none for the excluded ones, every one succeeded.
  expect(
    await count(
      sql`select count(distinct entity_id)::int as n from automation_runs where automation_id = ${automationId}`,
    ),
  ).toBe(matching);
  expect(
    await count(
      sql`select count(*)::int as n from automation_runs where automation_id = ${automationId} and status = 'succeeded'`,
    ),
  ).toBe(matching);
  expect(
    await count(sql`select count(*)::int as n from automation_runs r join entities e
                    on e.tenant_id = r.tenant_id and e.domain = 'customer' and e.id = r.entity_id
                    where r.automation_id = ${automationId} and 'test' = any(e.tags)`),
  ).toBe(0);
  // The tag landed once on each.
  expect(
    await count(sql`select count(*)::int as n from entities where tenant_id = ${shop.tenant.id}
                    and array_length(array_positions(tags, 'spring-sale'), 1) = 1`),
  ).toBe(matching);
  console.info(`fan-out: ${atKill!.runsCreated} of ${matching} runs created before the kill`);
}, 240_000);
