import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as revertRoute } from "@/app/api/v1/automations/[id]/versions/[version]/revert/route";
import { executeRun, resumeWait } from "@/lib/automations/engine/pipeline";
import { IN_FLIGHT_POLICIES } from "@/lib/automations/lifecycle/policies";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { publishFlow, republish, waitThenTag } from "@/tests/helpers/flows";

// SPEC §2: a run whose version's graph equals the active one continues — a revert rescues the runs
// that waited on the version it brings back, whatever the in-flight policy. Real engine, no worker:
// the test runs each leg itself.

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});

async function tagsOf(entityId: string): Promise<string[]> {
  const [row] = await getDb()
    .select({ tags: entities.tags })
    .from(entities)
    .where(and(eq(entities.tenantId, shop.tenant.id), eq(entities.id, entityId)));
  return row?.tags ?? [];
}

describe.each(IN_FLIGHT_POLICIES)("with policy %s", (policy) => {
  //  v1 (policy P): run parks at the wait   v2: other tag (policy P)   v3 = revert to v1
  //  wake ⇒ the run carries on with v1's steps: tagged "v1", never "v2"
  test("a run waiting on v1 carries on after a revert to v1, with v1's steps", async () => {
    const entityId = `revert-${policy}`;
    const id = await publishFlow(shop.keys.editor, `Revert ${policy}`, waitThenTag("v1"), {
      inFlightPolicy: policy,
    });
    await upsertEntity(
      shop.tenant.id,
      "order",
      entityId,
      { number: "#1", status: "pending", total: 10, currency: "EUR" },
      "test",
    );
    const [run] = await getDb()
      .select()
      .from(automationRuns)
      .where(and(eq(automationRuns.automationId, id), eq(automationRuns.entityId, entityId)));
    await executeRun(run!.id);
    const [wait] = await getDb()
      .select()
      .from(automationRunWaits)
      .where(and(eq(automationRunWaits.runId, run!.id), eq(automationRunWaits.status, "pending")));

    await republish(shop.keys.editor, id, waitThenTag("v2"), policy);
    const reverted = await call(revertRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id, version: "1" },
    });
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    expect(reverted.body).toMatchObject({ version: 3 });

    expect(await resumeWait(wait!.id)).toBe("resumed");
    const [after] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
    expect(after!.status).toBe("succeeded");
    expect(await tagsOf(entityId)).toEqual(["v1"]);
  });
});
