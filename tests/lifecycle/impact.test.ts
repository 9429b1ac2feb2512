import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { automationImpact } from "@/lib/automations/lifecycle/impact";
import { POLICY_SENTENCES } from "@/lib/automations/lifecycle/policies";
import type { Caller } from "@/lib/identity/caller";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { publishAutomation } from "@/lib/automations/lifecycle/publish";
import { saveDraft } from "@/lib/automations/lifecycle/save-draft";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { until } from "@/tests/helpers/poll";
import { placeOrder } from "@/tests/helpers/orders";

let shop: TestShop;
let other: TestShop;

let editor: Caller;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  editor = await callerOf(shop, "editor");
});
workerForFile();

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

/** The same flow with the wait set to `minutes`. */
function withWait(minutes: number) {
  return {
    ...waitFlow,
    nodes: waitFlow.nodes.map((n) =>
      n.id === "w" ? { ...n, params: { duration: minutes, unit: "minutes" } } : n,
    ),
  };
}

async function untilWaiting(automationId: string, count: number) {
  await until(
    async () =>
      (
        await getDb()
          .select({ id: automationRuns.id })
          .from(automationRuns)
          .where(and(eq(automationRuns.automationId, automationId), eq(automationRuns.status, "waiting")))
      ).length,
    (waiting) => waiting === count,
    { timeoutMs: 15_000, intervalMs: 50, what: `${count} runs of ${automationId} waiting` },
  );
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
    await placeOrder(shop, "impact-1");
    await placeOrder(shop, "impact-2");
    await untilWaiting(id, 2);
    const before = await getAutomation(shop.tenant.id, id);

    // Publishing the unchanged draft changes nothing for them: they started on these same steps.
    expect((await automationImpact(shop.tenant.id, id, "publish")).message).toBe(
      "2 runs are waiting at 'Wait 5 minutes'; they continue: they started on these same steps.",
    );

    const pause = await automationImpact(shop.tenant.id, id, "pause");
    expect(pause.waitingRuns).toBe(2);
    expect(pause.message).toBe(
      "2 runs are waiting at 'Wait 5 minutes'; any that come due while the automation is paused will be cancelled; those due after you activate it again continue.",
    );

    // A changed draft: they follow the policy; the wait is named as they wait at it (5 minutes), not
    // as the draft now calls step 'w' (10 minutes).
    await saveDraft(editor, id, { graph: withWait(10) });
    const publish = await automationImpact(shop.tenant.id, id, "publish");
    expect(publish).toEqual({
      waitingRuns: 2,
      policy: "cancel",
      message: `2 runs are waiting at 'Wait 5 minutes'; ${POLICY_SENTENCES.cancel}`,
    });
    // The publish dialog asks in the name of the policy chosen there; the automation's stays as it was.
    const asIf = await automationImpact(shop.tenant.id, id, "publish", {
      policy: "finish_on_started_version",
    });
    expect(asIf.policy).toBe("finish_on_started_version");
    expect(asIf.message).toBe(
      `2 runs are waiting at 'Wait 5 minutes'; ${POLICY_SENTENCES.finish_on_started_version}`,
    );
    const saved = await getAutomation(shop.tenant.id, id);

    expect(await getAutomation(shop.tenant.id, id)).toEqual(saved);
    expect(saved.activeGraph).toEqual(before.activeGraph);
  });

  //  v1: t ──▶ Wait 5 minutes ──▶ tag     (2 runs wait here)
  //  v2: t ──▶ Wait 10 minutes ──▶ tag    (1 run waits here), policy cancel
  //  revert to v1 ⇒ v1's runs continue (same steps), v2's run is cancelled (v1's policy: cancel)
  test("a revert says which runs it rescues and which follow the policy, each at the wait it waits at", async () => {
    const id = await publishFlow(shop.keys.editor, "Revert me", waitFlow);
    await placeOrder(shop, "revert-1");
    await placeOrder(shop, "revert-2");
    await untilWaiting(id, 2);
    await saveDraft(editor, id, { graph: withWait(10) });
    await publishAutomation(editor, id, {});
    await placeOrder(shop, "revert-3");
    await untilWaiting(id, 3);

    const revert = await automationImpact(shop.tenant.id, id, "publish", { version: 1 });
    expect(revert).toEqual({
      waitingRuns: 3,
      policy: "cancel",
      message: `1 run is waiting at 'Wait 10 minutes'; ${POLICY_SENTENCES.cancel} 2 runs are waiting at 'Wait 5 minutes'; they continue: they started on these same steps.`,
    });
    const missing = await refusal(automationImpact(shop.tenant.id, id, "publish", { version: 9 }));
    expect(missing.status).toBe(404);
  });

  test("another tenant's automation, a missing one and a malformed id are all not found", async () => {
    const id = await publishFlow(shop.keys.editor, "Mine", waitFlow);
    await placeOrder(shop, "impact-3");
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
