import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as backtestRoute } from "@/app/api/v1/automations/[id]/backtest/route";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import type { BacktestResult } from "@/lib/automations/backtest/backtest";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { RunDetail } from "@/lib/automations/runs/detail";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * SPEC §2 "Backtest and why", with the real worker: ten paid orders ran a "total > 100 → tag"
 * flow; a backtest of the draft "total > 50" replays them with no effects and names the runs that
 * would now take another path; every condition step says what it read and compared.
 */

//  order_paid ──▶ total > <threshold> ──true──▶ add_tag(vip)
const tagBigOrders = (threshold: number) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      {
        id: "big",
        type: "auto.condition.field",
        params: { path: "total", operator: "gt", value: threshold },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "vip" } },
    ],
    [
      ["t", "big"],
      ["big", "tag", "true"],
    ],
  );

const TOTALS = [20, 40, 60, 70, 80, 90, 110, 130, 150, 200];

let shop: TestShop;
let other: TestShop;
let automationId: string;
let otherAutomationId: string;
let runByTotal: Map<number, string>;

/** Rows a backtest must not write: runs, steps, deliveries, notes, emails, and the orders' tags. */
async function footprint(tenantId: string) {
  const [row] = await getDb().execute<Record<string, string>>(sql`
    select
      (select count(*) from automation_runs where tenant_id = ${tenantId}) as runs,
      (select count(*) from automation_run_steps where tenant_id = ${tenantId}) as steps,
      (select count(*) from action_deliveries where tenant_id = ${tenantId}) as deliveries,
      (select count(*) from entity_notes where tenant_id = ${tenantId}) as notes,
      (select count(*) from outbox_emails where tenant_id = ${tenantId}) as emails,
      (select count(*) from graphile_worker.jobs) as jobs,
      (select string_agg(id || ':' || array_to_string(tags, ','), ' ' order by id)
         from entities where tenant_id = ${tenantId} and domain = 'order') as tags`);
  return row;
}

/** Ten orders paid in turn: each starts one run of every order_paid flow of the shop. */
async function payOrders(target: TestShop, prefix: string) {
  const fields = (i: number, total: number) => ({ total, number: String(1001 + i) });
  for (const [i, total] of TOTALS.entries()) await placeOrder(target, `${prefix}-${i}`, fields(i, total));
  for (const [i, total] of TOTALS.entries())
    await placeOrder(target, `${prefix}-${i}`, { ...fields(i, total), status: "paid" });
}

// Started first: the runs below are the worker's.
workerForFile();
beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  automationId = await publishFlow(shop.keys.editor, "Tag big orders", tagBigOrders(100));
  otherAutomationId = await publishFlow(other.keys.editor, "Tag big orders", tagBigOrders(100));
  await payOrders(shop, "o");
  await payOrders(other, "x");
  const runs = await settledRuns(automationId, TOTALS.length, 30_000);
  await settledRuns(otherAutomationId, TOTALS.length, 30_000);
  expect(runs.map((r) => r.status)).toEqual(TOTALS.map(() => "succeeded"));
  const rows = await getDb().execute<{ id: string; entity_id: string }>(
    sql`select id, entity_id from automation_runs where automation_id = ${automationId}`,
  );
  runByTotal = new Map(rows.map((r) => [TOTALS[Number(r.entity_id.split("-")[1])]!, r.id]));
}, 60_000);

describe("backtest", () => {
  test("the draft 'total > 50' would newly tag exactly the four orders of 60 to 90, and writes nothing", async () => {
    const before = await footprint(shop.tenant.id);
    const reply = await call<BacktestResult>(backtestRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: { graph: tagBigOrders(50) },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const result = reply.body;
    expect(result.runs).toBe(10);
    expect(result.then).toMatchObject({ t: 10, big: 10, tag: 4 });
    expect(result.now).toMatchObject({ t: 10, big: 10, tag: 8 });
    expect(result.changed.map((c) => c.runId).sort()).toEqual(
      [60, 70, 80, 90].map((total) => runByTotal.get(total)).sort(),
    );
    for (const change of result.changed) {
      expect(change.then).toEqual(["t", "big"]);
      expect(change.now).toEqual(["t", "big", "tag"]);
      const total = [...runByTotal].find(([, runId]) => runId === change.runId)![0];
      expect(change.entity?.label).toMatch(
        new RegExp(`^Order #${1001 + TOTALS.indexOf(total)} · .*${total}`),
      );
    }
    expect(result.sentences).toEqual(["4 runs would newly reach “Add tag 'vip'”"]);
    expect(await footprint(shop.tenant.id)).toEqual(before);
  });

  test("the draft by default, a limit it never exceeds, and only the shop's own runs", async () => {
    const unchanged = await call<BacktestResult>(backtestRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
    });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.runs).toBe(10);
    expect(unchanged.body.changed).toEqual([]);
    expect(unchanged.body.sentences).toEqual(["All 10 runs would take the same path"]);

    const three = await call<BacktestResult>(backtestRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: { graph: tagBigOrders(50), limit: 3 },
    });
    expect(three.body.runs).toBe(3);
    expect(three.body.then.t).toBe(3);

    // Another shop's automation is not found; its runs never join this shop's.
    const foreign = await call<ErrorReply>(backtestRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: otherAutomationId },
    });
    expect(foreign.status).toBe(404);
  });

  test("a viewer may not, and a bad limit or graph is refused in a sentence with nothing written", async () => {
    const before = await footprint(shop.tenant.id);
    const viewer = await call<ErrorReply>(backtestRoute, {
      method: "POST",
      key: shop.keys.viewer,
      params: { id: automationId },
    });
    expect(viewer.status).toBe(403);
    const tooMany = await call<ErrorReply>(backtestRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: { limit: 501 },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.message).toContain("at most 500 runs");
    const broken = await call<ErrorReply>(backtestRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: { graph: { nodes: [{ id: "t", type: "auto.trigger.order_paid", params: {} }], edges: [] } },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.error.message).toMatch(/^Fix this flow before trying it: /);
    expect(await footprint(shop.tenant.id)).toEqual(before);
  });
});

describe("why", () => {
  test("a run's condition step names the value it read and the threshold", async () => {
    const reply = await call<RunDetail>(runRoute, {
      key: shop.keys.viewer,
      params: { id: runByTotal.get(80)! },
    });
    expect(reply.status).toBe(200);
    const step = reply.body.steps.find((s) => s.nodeId === "big")!;
    expect(step.why).toEqual({
      path: "total",
      value: 80,
      missing: false,
      operator: "gt",
      compared: 100,
      text: "Total is 80, not more than 100",
    });
    // The run took no action: its page leads with the condition that stopped it, and why.
    expect(reply.body.stoppedAt).toEqual([
      expect.objectContaining({ nodeId: "big", result: false, why: expect.objectContaining({ value: 80 }) }),
    ]);
    const tagged = await call<RunDetail>(runRoute, {
      key: shop.keys.viewer,
      params: { id: runByTotal.get(150)! },
    });
    expect(tagged.body.steps.find((s) => s.nodeId === "big")!.why?.text).toBe("Total is 150, more than 100");
  });

  test("a missing field says missing, in a dry run as in a run", async () => {
    const graph = flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "de",
          type: "auto.condition.field",
          params: { path: "shippingAddress.countryCode", operator: "eq", value: "DE" },
        },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "germany" } },
      ],
      [
        ["t", "de"],
        ["de", "tag", "true"],
      ],
    );
    const reply = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: { graph, entityId: "o-0" },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const step = reply.body.steps.find((s) => s.nodeId === "de")!;
    expect(step.why).toMatchObject({ path: "shippingAddress.countryCode", missing: true, compared: "DE" });
    expect(step.why).not.toHaveProperty("value");
    expect(step.detail).toEqual(["Shipping country code is missing, so it follows 'False'."]);
  });
});
