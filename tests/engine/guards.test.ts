import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { executeRun, resumeWait } from "@/lib/automations/engine/pipeline";
import { STEP_LIMIT_REASON } from "@/lib/automations/engine/interpreter";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});

//  order_created ──▶ wait (5 min) ──▶ tag(a) ──▶ tag(b)
test("the step guard counts the whole run: a leg that would take the run past 500 steps fails it with the guard's reason", async () => {
  const id = await publishFlow(
    shop.keys.editor,
    "Long",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
        { id: "a", type: "auto.action.add_tag", params: { tag: "a" } },
        { id: "b", type: "auto.action.add_tag", params: { tag: "b" } },
      ],
      [
        ["t", "w"],
        ["w", "a"],
        ["a", "b"],
      ],
    ),
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "g-1",
    { number: "#1", status: "pending", total: 1, currency: "EUR" },
    "test",
  );
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  await executeRun(run!.id);
  // As if earlier legs (retries, say) had already taken 498 steps: the wait's leg makes 499.
  await getDb().execute(sql`
    insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, leg, position, status, started_at)
    select ${shop.tenant.id}, ${run!.id}, 'earlier-' || g, 'auto.action.add_note', 'action', 1, g, 'success', now()
    from generate_series(1, 498) g`);
  const [wait] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run!.id));
  expect(await resumeWait(wait!.id)).toBe("skipped");
  const [ended] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(ended).toMatchObject({ status: "failed", error: STEP_LIMIT_REASON });
  const [order] = await getDb().select({ tags: entities.tags }).from(entities).where(eq(entities.id, "g-1"));
  expect(order!.tags).toEqual([]);
});
