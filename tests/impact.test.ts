import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { automationImpact } from "@/lib/automations/impact";
import { POLICY_SENTENCES } from "@/lib/automations/policies";
import { getAutomation } from "@/lib/automations/service";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { AppError } from "@/lib/errors";
import { startWorker, type WorkerHandle } from "@/worker/run";
import { createShop, type TestShop } from "./fixtures";
import { flow, publishFlow } from "./flows";

let shop: TestShop;
let other: TestShop;
let worker: WorkerHandle;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  worker = await startWorker({ connectionString: process.env.DATABASE_URL!, crontab: false });
});
afterAll(async () => {
  await worker.stop();
});

//  order_created ──▶ Wait 5 minutes ──▶ add_tag(later)
const waitFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "later" } },
  ],
  [
    ["t", "w"],
    ["w", "tag"],
  ],
);

const order = { number: "#1", status: "pending", total: 10, currency: "EUR" };

async function untilWaiting(automationId: string, count: number) {
  await expect
    .poll(
      async () =>
        (
          await getDb()
            .select({ id: automationRuns.id })
            .from(automationRuns)
            .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.status, "waiting")))
        ).length,
      { timeout: 15_000, interval: 50 },
    )
    .toBe(count);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("automationImpact", () => {
  test("with no run waiting it says so, for publish and pause alike", async () => {
    const id = await publishFlow(shop.keys.editor, "Nobody waiting", waitFlow);
    expect(await automationImpact(shop.tenant.id, id, "publish")).toEqual({
      waitingRuns: 0,
      policy: "cancel",
      message: "No runs are waiting.",
    });
    expect((await automationImpact(shop.tenant.id, id, "pause")).message).toBe("No runs are waiting.");
  });

  test("counts the runs waiting per step and says what publishing or pausing does to them, changing nothing", async () => {
    const id = await publishFlow(shop.keys.editor, "Two waiting", waitFlow);
    await upsertEntity(shop.tenant.id, "order", "impact-1", order, "test");
    await upsertEntity(shop.tenant.id, "order", "impact-2", order, "test");
    await untilWaiting(id, 2);
    const before = await getAutomation(shop.tenant.id, id);

    const publish = await automationImpact(shop.tenant.id, id, "publish");
    expect(publish).toEqual({
      waitingRuns: 2,
      policy: "cancel",
      message: `2 runs are waiting at 'Wait 5 minutes'; ${POLICY_SENTENCES.cancel}`,
    });

    const pause = await automationImpact(shop.tenant.id, id, "pause");
    expect(pause.waitingRuns).toBe(2);
    expect(pause.message).toBe(
      "2 runs are waiting at 'Wait 5 minutes'; any that come due while the automation is paused will be cancelled; those due after you activate it again continue.",
    );

    // A revert asks in the name of the version's own policy; the automation's stays as it was.
    const asIf = await automationImpact(shop.tenant.id, id, "publish", "finish_on_started_version");
    expect(asIf.policy).toBe("finish_on_started_version");
    expect(asIf.message).toBe(
      `2 runs are waiting at 'Wait 5 minutes'; ${POLICY_SENTENCES.finish_on_started_version}`,
    );

    const after = await getAutomation(shop.tenant.id, id);
    expect(after).toEqual(before);
  });

  test("another tenant's automation, a missing one and a malformed id are all not found", async () => {
    const id = await publishFlow(shop.keys.editor, "Mine", waitFlow);
    await upsertEntity(shop.tenant.id, "order", "impact-3", order, "test");
    await untilWaiting(id, 1);

    const foreign = await refusal(automationImpact(other.tenant.id, id, "publish"));
    expect(foreign.status).toBe(404);
    expect(foreign.message).toBe("That automation was not found.");

    const missing = await refusal(
      automationImpact(shop.tenant.id, "00000000-0000-4000-8000-000000000000", "pause"),
    );
    expect(missing.status).toBe(404);

    const malformed = await refusal(automationImpact(shop.tenant.id, "not-a-uuid", "publish"));
    expect(malformed.status).toBe(404);

    // The owner still reads its own waiting run: the 404 above was scoping, not an empty count.
    expect((await automationImpact(shop.tenant.id, id, "publish")).waitingRuns).toBe(1);
  });
});
