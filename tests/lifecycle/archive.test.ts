import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as restoreRoute } from "@/app/api/v1/automations/[id]/restore/route";
import { DELETE as archiveRoute, GET as getRoute } from "@/app/api/v1/automations/[id]/route";
import { GET as versionsRoute } from "@/app/api/v1/automations/[id]/versions/route";
import { GET as listRoute } from "@/app/api/v1/automations/route";
import { executeRun, resumeWait } from "@/lib/automations/engine/pipeline";
import { automationImpact } from "@/lib/automations/lifecycle/impact";
import { builtinAutomation, ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

interface Automation {
  id: string;
  name: string;
  status: string;
  version: number;
}
type Reply = Automation & ErrorReply;

let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
});

//  order_created ──▶ wait (5 min) ──▶ tag
const waitFlow = (tag: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
      { id: "tag", type: "auto.action.add_tag", params: { tag } },
    ],
    [
      ["t", "w"],
      ["w", "tag"],
    ],
  );

/** Publishes the wait flow and parks one run on its wait (no worker: the first leg runs here). */
async function parked(name: string, entityId: string) {
  const id = await publishFlow(shop.keys.editor, name, waitFlow(name));
  await upsertEntity(
    shop.tenant.id,
    "order",
    entityId,
    { number: entityId, status: "pending", total: 1, currency: "EUR" },
    "test",
  );
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  await executeRun(run!.id);
  const [wait] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run!.id));
  return { id, runId: run!.id, waitId: wait!.id };
}

const archive = (key: string, id: string) =>
  call<Reply>(archiveRoute, { method: "DELETE", key, params: { id } });

describe("archiving", () => {
  test("archive keeps runs and versions; a waiting run is cancelled with the archived reason when it wakes", async () => {
    const a = await parked("Archive me", "ar-1");
    const impact = await automationImpact(shop.tenant.id, a.id, "archive");
    expect(impact).toMatchObject({
      waitingRuns: 1,
      message: "1 run is waiting at 'Wait 5 minutes'; it will be cancelled when it wakes.",
    });

    const archived = await archive(shop.keys.editor, a.id);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: a.id, status: "archived", version: 1 });

    const versions = await call<{ items: { version: number }[] }>(versionsRoute, {
      key: shop.keys.viewer,
      params: { id: a.id },
    });
    expect(versions.body.items.map((v) => v.version)).toEqual([1]);
    const got = await call<Reply>(getRoute, { key: shop.keys.viewer, params: { id: a.id } });
    expect(got.body.status).toBe("archived");

    expect(await resumeWait(a.waitId)).not.toBe("noop");
    const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, a.runId));
    expect(run).toMatchObject({
      status: "cancelled",
      reason: "The automation was archived while this run was waiting.",
    });
    const [order] = await getDb()
      .select({ tags: entities.tags })
      .from(entities)
      .where(eq(entities.id, "ar-1"));
    expect(order!.tags).toEqual([]);

    // New events start no runs; archiving again is harmless; the run is still there.
    await upsertEntity(
      shop.tenant.id,
      "order",
      "ar-2",
      { number: "ar-2", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    expect((await archive(shop.keys.editor, a.id)).status).toBe(200);
    const runs = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, a.id));
    expect(runs.map((r) => r.id)).toEqual([a.runId]);
  });

  test("a built-in is refused with a 409", async () => {
    await ensureBuiltins(shop.tenant.id);
    const builtin = await builtinAutomation(shop.tenant.id, "mark-carts-abandoned");
    const res = await archive(shop.keys.admin, builtin!.id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      "A built-in automation cannot be archived; pause it to turn it off, or reset it to the built-in definition.",
    );
    expect((await builtinAutomation(shop.tenant.id, "mark-carts-abandoned"))!.status).toBe("active");
  });

  test("a viewer gets 403; another shop gets 404", async () => {
    const id = await publishFlow(shop.keys.editor, "Guarded", waitFlow("guarded"));
    expect((await archive(shop.keys.viewer, id)).status).toBe(403);
    expect((await archive(other.keys.admin, id)).status).toBe(404);
    expect(
      (await call<Reply>(restoreRoute, { method: "POST", key: other.keys.admin, params: { id } })).status,
    ).toBe(404);
    const got = await call<Reply>(getRoute, { key: shop.keys.viewer, params: { id } });
    expect(got.body.status).toBe("active");
  });
});

describe("restoring and listing", () => {
  test("archived automations leave the default list, show under status=archived, and restore as paused", async () => {
    const id = await publishFlow(shop.keys.editor, "Listed then archived", waitFlow("listed"));
    await archive(shop.keys.editor, id);

    const list = (status?: string) =>
      call<{ items: { id: string; status: string }[] }>(listRoute, {
        key: shop.keys.viewer,
        path: status ? `/?status=${status}` : "/",
      });
    expect((await list()).body.items.map((i) => i.id)).not.toContain(id);
    expect((await list("archived")).body.items).toContainEqual(
      expect.objectContaining({ id, status: "archived" }),
    );

    expect(
      (await call<Reply>(restoreRoute, { method: "POST", key: shop.keys.viewer, params: { id } })).status,
    ).toBe(403);
    const restored = await call<Reply>(restoreRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id, status: "paused", version: 1 });
    expect((await list()).body.items.map((i) => i.id)).toContain(id);
    expect((await list("archived")).body.items.map((i) => i.id)).not.toContain(id);

    const again = await call<Reply>(restoreRoute, { method: "POST", key: shop.keys.editor, params: { id } });
    expect(again.status).toBe(409);
  });
});
