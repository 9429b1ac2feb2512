import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dashboard } from "@/lib/automations/insights/dashboard";
import { automationInsights } from "@/lib/automations/insights/automation";
import { getRun } from "@/lib/automations/runs/detail";
import { listRuns } from "@/lib/automations/runs/history";
import { rerunRun } from "@/lib/automations/runs/rerun";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { runInStatus, TERMINAL } from "@/tests/helpers/poll";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Run outcomes that add up (SPEC §2 "Settling"): a run records how many actions it took, in the
 * write that settles it; one that took none is "Nothing to do" (succeeded, out of the success
 * rate); one with a failed action counts as a failure, partial as much as failed.
 */

let shop: TestShop;
let server: http.Server;
let base: string;
/** Whether /flaky answers 500 (true) or 200. */
let flakyFails = true;

beforeAll(async () => {
  shop = await createShop();
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const fail = req.url === "/fail" || (req.url === "/flaky" && flakyFails);
      res.statusCode = fail ? 500 : 200;
      res.end(JSON.stringify({ ok: !fail }));
    });
  });
  base = await listenLocally(server);
});

afterAll(async () => {
  await closeServer(server);
});
workerForFile();

//  order_created ──▶ Order over €100? ──true──▶ add_tag(big)
//                                     └─false─▶ (nothing)
const bigOrders = () =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "big" } },
    ],
    [
      ["t", "big"],
      ["big", "tag", "true"],
    ],
  );

//  order_created ──▶ add_tag(seen) ──▶ call <path> (retry: 2 × 1 s) ──▶ (end)
const tagThenCall = (path: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "seen" } },
      {
        id: "call",
        type: "auto.action.http_request",
        params: { url: `${base}${path}`, retry: { attempts: 2, backoff: "fixed", initialSeconds: 1 } },
      },
    ],
    [
      ["t", "tag"],
      ["tag", "call"],
    ],
  );

describe("actions taken", () => {
  test("a run stopped at a false condition succeeds with 0 actions, and says where it stopped", async () => {
    const id = await publishFlow(shop.keys.editor, "Tag big orders", bigOrders());
    await placeOrder(shop, "small-1", { total: 20 });
    const [row] = await settledRuns(id);
    const run = await getRun(shop.tenant.id, row!.id);
    expect(run.status).toBe("succeeded");
    expect(run.actionsTaken).toBe(0);
    expect(run.stoppedAt).toEqual([
      {
        nodeId: "big",
        label: expect.any(String),
        result: false,
        why: expect.objectContaining({ path: "total", value: 20, text: "Total is 20, not more than 100" }),
      },
    ]);

    await placeOrder(shop, "big-1", { total: 150 });
    const runs = await settledRuns(id, 2);
    const acted = await getRun(shop.tenant.id, runs[1]!.id);
    expect(acted).toMatchObject({ status: "succeeded", actionsTaken: 1, stoppedAt: [] });

    // The list and its filters: "Nothing to do" finds the first only; Succeeded still has both.
    const nothing = await listRuns(shop.tenant.id, { automationId: id, status: "nothing_to_do" });
    expect(nothing.items.map((r) => [r.id, r.actionsTaken])).toEqual([[row!.id, 0]]);
    const succeeded = await listRuns(shop.tenant.id, { automationId: id, status: "succeeded" });
    expect(succeeded.items).toHaveLength(2);

    // Insights: one succeeded, one nothing to do; the success rate leaves the latter out.
    const insights = await automationInsights({ tenantId: shop.tenant.id, automationId: id });
    expect(insights.totals).toMatchObject({ succeeded: 1, nothing: 1 });
    expect(insights.successRate).toBe(1);
  });

  test("a partial run counts its actions across legs, each action's last attempt once", async () => {
    const id = await publishFlow(shop.keys.editor, "Tag and call (fails)", tagThenCall("/fail"));
    await placeOrder(shop, "partial-1");
    const [row] = await settledRuns(id, 1, 20_000);
    const run = await getRun(shop.tenant.id, row!.id);
    // Leg 1: tag, call (500, retried); leg 2: call again (500, for good).
    expect(run).toMatchObject({ status: "partial", legs: 2, actionsTaken: 2 });

    const failures = await listRuns(shop.tenant.id, { automationId: id, status: "failed_or_partial" });
    expect(failures.items.map((r) => r.id)).toEqual([row!.id]);
  });
});

describe("failures count wherever they are counted", () => {
  test("the dashboard counts and lists a partial run with the failed ones, until it is re-run", async () => {
    const own = await createShop();
    const id = await publishFlow(own.keys.editor, "Tag and call (flaky)", tagThenCall("/flaky"));
    flakyFails = true;
    await placeOrder(own, "p-1");
    const [row] = await settledRuns(id, 1, 20_000);
    expect(row!.status).toBe("partial");

    const d = await dashboard({ tenantId: own.tenant.id });
    expect(d.weekCounts).toMatchObject({ partial: 1, failed: 0 });
    expect(d.failed.map((r) => [r.id, r.status])).toEqual([[row!.id, "partial"]]);
    expect(d.busiest).toEqual([expect.objectContaining({ automationId: id, runs: 1, failed: 1 })]);
    const insights = await automationInsights({ tenantId: own.tenant.id, automationId: id });
    expect(insights.successRate).toBe(0);

    // Re-run it once the receiver works again: the re-run succeeds and the original leaves the list.
    flakyFails = false;
    const { run: rerun } = await rerunRun(await callerOf(own, "editor"), row!.id, {});
    await runInStatus(rerun.id, TERMINAL, { timeoutMs: 20_000 });
    const after = await dashboard({ tenantId: own.tenant.id });
    expect(after.failed).toEqual([]);
    const original = await getRun(own.tenant.id, row!.id);
    expect(original.reruns).toEqual([expect.objectContaining({ id: rerun.id, status: "succeeded" })]);

    // The funnel counts the re-run apart from the first run.
    const funnel = await automationInsights({ tenantId: own.tenant.id, automationId: id });
    expect(funnel.reruns).toBe(1);
    expect(funnel.funnel.find((f) => f.nodeId === "t")).toMatchObject({ runs: 1, reruns: 1 });
    expect(funnel.funnel.find((f) => f.nodeId === "call")).toMatchObject({ runs: 1, reruns: 1 });
  });
});
