import http from "node:http";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as rerunRoute } from "@/app/api/v1/runs/[id]/rerun/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { splitPosition } from "@/lib/automations/engine/split-hash";
import { sendEveryoneDownBranch } from "@/lib/automations/lifecycle/keep-branch";
import { chooseBranch, splitParams } from "@/lib/automations/nodes/split/split";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps } from "@/lib/db/schema";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { placeOrder } from "@/tests/helpers/orders";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * The Split step on the real worker: each customer goes down one branch by a stable hash of the
 * automation, the step and the customer — the same branch on every run, on a rerun and in a dry
 * run — and its step hands on exactly { branch, label, weight, share }.
 */

let shop: TestShop;
let server: http.Server;
let base = "";
beforeAll(async () => {
  shop = await createShop();
  // A CRM that refuses every call: each branch's step fails, so a run can be re-run.
  server = http.createServer((_req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end('{"error":"unknown customer"}');
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  await closeServer(server);
});
workerForFile();

const BRANCHES = [
  { id: "a", label: "Group A", weight: 60 },
  { id: "b", label: "Group B", weight: 40 },
];

//  order_created ──▶ split ──a──▶ ta: POST /a (refused)
//                         └─b──▶ tb: POST /b (refused)
const splitFlow = () =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "split", type: "auto.control.split", params: { branches: BRANCHES, by: "customer" } },
      { id: "ta", type: "auto.action.http_request", params: { url: `${base}/a`, body: '{"group":"a"}' } },
      { id: "tb", type: "auto.action.http_request", params: { url: `${base}/b`, body: '{"group":"b"}' } },
    ],
    [
      ["t", "split"],
      ["split", "ta", "a"],
      ["split", "tb", "b"],
    ],
  );

/** The branch the hash gives a customer of this automation. */
function expectedBranch(automationId: string, customerId: string) {
  return chooseBranch(
    splitParams.parse({ branches: BRANCHES }),
    splitPosition(automationId, "split", `customer:${customerId}`),
  )!;
}

async function splitStepOf(runId: string) {
  const [step] = await getDb()
    .select()
    .from(automationRunSteps)
    .where(and(eq(automationRunSteps.runId, runId), eq(automationRunSteps.nodeId, "split")));
  return step!;
}

describe("the Split step", () => {
  test("the same customer takes the same branch on two runs and on a rerun; its output is the choice", async () => {
    const id = await publishFlow(shop.keys.editor, "A/B thank-you", splitFlow());
    await placeOrder(shop, "s-1", { customerId: "cust-1" });
    await placeOrder(shop, "s-2", { customerId: "cust-1" });
    // Another customer, for whom the hash may well choose the other branch.
    await placeOrder(shop, "s-3", { customerId: "cust-2" });
    const runs = await settledRuns(id, 3, 30_000);
    expect(runs.map((r) => r.status)).toEqual(["failed", "failed", "failed"]);

    const rows = await getDb()
      .select({ id: automationRuns.id, entityId: automationRuns.entityId })
      .from(automationRuns)
      .where(eq(automationRuns.automationId, id));
    const runOf = (entityId: string) => rows.find((r) => r.entityId === entityId)!.id;
    const first = await splitStepOf(runOf("s-1"));
    const second = await splitStepOf(runOf("s-2"));
    const want = expectedBranch(id, "cust-1");
    expect(first.output).toEqual({
      branch: want.branch,
      label: want.label,
      weight: want.weight,
      share: want.share,
    });
    expect(second.output).toEqual(first.output);
    expect(first.reason).toBe(
      `${want.label}, ${want.weight} % of customers — the same customer always takes this branch.`,
    );
    const other = await splitStepOf(runOf("s-3"));
    expect(other.output).toMatchObject({ branch: expectedBranch(id, "cust-2").branch });

    // Only the chosen branch's step ran (and failed: the CRM refuses, so the run can be re-run).
    const tagged = await getDb()
      .select({ nodeId: automationRunSteps.nodeId })
      .from(automationRunSteps)
      .where(eq(automationRunSteps.runId, runOf("s-1")));
    expect(tagged.map((s) => s.nodeId).sort()).toEqual(["split", want.branch === "a" ? "ta" : "tb"]);

    const rerun = await call<{ run: { id: string } }>(rerunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: runOf("s-1") },
    });
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(201);
    await settledRuns(id, 4, 30_000);
    expect((await splitStepOf(rerun.body.run.id)).output).toEqual(first.output);

    // The dry run takes the same hash, and says which branch and why.
    const dry = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: { entityId: "s-1" },
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const step = dry.body.steps.find((s) => s.nodeId === "split")!;
    expect(step.outcome).toBe("branch");
    expect(step.branch).toEqual(first.output);
    expect(step.detail).toEqual([
      `Goes down ${want.label}, ${want.weight} % of customers — the same customer always takes this branch.`,
    ]);
    expect(dry.body.path.nodeIds).toContain(want.branch === "a" ? "ta" : "tb");
    expect(dry.body.path.nodeIds).not.toContain(want.branch === "a" ? "tb" : "ta");

    // "Send everyone down" the other branch: a draft without the split, ready to publish.
    const keep = want.branch === "a" ? "b" : "a";
    const draft = await sendEveryoneDownBranch(await callerOf(shop, "editor"), id, {
      splitId: "split",
      branch: keep,
    });
    expect(draft.readyIssues).toEqual([]);
    expect(draft.draftGraph.nodes.map((n) => n.id).sort()).toEqual(["t", keep === "a" ? "ta" : "tb"]);
    expect(draft.hasUnpublishedChanges).toBe(true);
    // Four runs on the worker: a generous limit for a busy machine, not a timing assertion.
  }, 120_000);
});
