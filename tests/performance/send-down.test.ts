import { beforeAll, describe, expect, test } from "vitest";
import { POST as sendDownRoute } from "@/app/api/v1/automations/[id]/splits/[stepId]/send-down/route";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

/*
 * Issue 50: "Send everyone down the winner" over REST — a draft without the split, ready to
 * publish; a split or branch that is not there is a plain 422; a viewer may not.
 */

let shop: TestShop;
let id: string;

//  order_paid ──▶ split A / B ──A──▶ tag a   ──B──▶ tag b
const splitFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_paid" },
    {
      id: "split",
      type: "auto.control.split",
      params: {
        by: "customer",
        branches: [
          { id: "a", label: "Group A", weight: 1 },
          { id: "b", label: "Group B", weight: 1 },
        ],
      },
    },
    { id: "ta", type: "auto.action.add_tag", params: { tag: "a" } },
    { id: "tb", type: "auto.action.add_tag", params: { tag: "b" } },
  ],
  [
    ["t", "split"],
    ["split", "ta", "a"],
    ["split", "tb", "b"],
  ],
);

beforeAll(async () => {
  shop = await createShop();
  id = await publishFlow(shop.keys.editor, "Split thanks", splitFlow);
});

const sendDown = (key: string, stepId: string, body: unknown) =>
  call<AutomationView & { error?: { message: string } }>(sendDownRoute, {
    method: "POST",
    key,
    params: { id, stepId },
    body,
  });

describe("POST /api/v1/automations/:id/splits/:stepId/send-down", () => {
  test("an editor gets a draft with the split replaced by the branch, ready to publish", async () => {
    const r = await sendDown(shop.keys.editor, "split", { branch: "b" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.draftGraph.nodes.map((n) => n.id).sort()).toEqual(["t", "tb"]);
    expect(r.body.readyIssues).toEqual([]);
    expect(r.body.hasUnpublishedChanges).toBe(true);
  });

  test("a split or branch that is not there is a plain 422; no branch is a 422; a viewer gets 403", async () => {
    const other = await publishFlow(shop.keys.editor, "Split again", splitFlow);
    const bad = await call<{ error: { message: string } }>(sendDownRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: other, stepId: "split" },
      body: { branch: "c" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain("no split 'split' with a branch 'c'");
    const none = await call(sendDownRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: other, stepId: "split" },
      body: {},
    });
    expect(none.status).toBe(422);
    const viewer = await call(sendDownRoute, {
      method: "POST",
      key: shop.keys.viewer,
      params: { id: other, stepId: "split" },
      body: { branch: "a" },
    });
    expect(viewer.status).toBe(403);
  });
});
