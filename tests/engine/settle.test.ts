import { and, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { settleRuns } from "@/lib/automations/store/runs";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});

//  order_created ──▶ add_tag(x)
const tagFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "x" } },
  ],
  [["t", "tag"]],
);

// Found by the chaos suite: a leg of one branch settling while a wait of another branch was just
// claimed for the next leg must not write its older reading over that leg's `running`.
test("a leg does not settle its run while a newer leg of it is in flight; the newer leg does", async () => {
  const id = await publishFlow(shop.keys.editor, "Settle guard", tagFlow);
  await upsertEntity(
    shop.tenant.id,
    "order",
    "settle-1",
    { number: "#1", status: "pending", total: 1, currency: "EUR" },
    "test",
  );
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, id), eq(automationRuns.entityId, "settle-1")));
  // Leg 2 was claimed (another branch's wait came due) and is running.
  await getDb()
    .update(automationRuns)
    .set({ status: "running", legs: 2 })
    .where(eq(automationRuns.id, run!.id));

  await settleRuns(getDb(), [{ runId: run!.id, leg: 1 }]);
  const [stale] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(stale!.status).toBe("running");

  await settleRuns(getDb(), [{ runId: run!.id, leg: 2 }]);
  const [settled] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(settled!.status).toBe("succeeded");
});
