import { expect, test } from "vitest";
import { plannedRuns } from "./plan";
import { stampOf, type Listener } from "../listeners";

const listener = (
  id: string,
  nodes: { id: string; type: string; params?: Record<string, unknown> }[],
): Listener => ({
  id,
  version: 3,
  graph: { nodes: nodes.map((n) => ({ params: {}, ...n })), edges: [] },
  caps: null,
  capsRevision: 0,
});

//  onPaid:    [t: order_status_changed to=paid] ──▶ …
//  onAny:     [t: order_status_changed]         ──▶ …
//  onCreated: [t: order_created]                ──▶ …
const onPaid = listener("a-paid", [
  { id: "t", type: "auto.trigger.order_status_changed", params: { to: "paid" } },
]);
const onAny = listener("a-any", [{ id: "t2", type: "auto.trigger.order_status_changed" }]);
const onCreated = listener("a-created", [{ id: "t3", type: "auto.trigger.order_created" }]);

const changed = (id: string, to: string) => ({
  id,
  type: "order.status_changed",
  domain: "order",
  entityId: "o-1",
  payload: { from: "pending", to },
});

test("one run per (listener whose trigger accepts the event, event), pinned to the status it fired for", () => {
  const runs = plannedRuns([changed("e1", "paid"), changed("e2", "cancelled")], [onPaid, onAny, onCreated]);
  expect(runs.map((r) => [r.automationId, r.eventId, r.triggerNodeId])).toEqual([
    ["a-paid", "e1", "t"],
    ["a-any", "e1", "t2"],
    ["a-any", "e2", "t2"],
  ]);
  expect(runs[0]).toMatchObject({
    automationVersion: 3,
    domain: "order",
    entityId: "o-1",
    event: {
      id: "e1",
      type: "order.status_changed",
      entityStatus: "paid",
      payload: { from: "pending", to: "paid" },
    },
  });
  expect(runs[0]!.event).not.toHaveProperty("occurredAt");
});

test("a target aims the event at one automation's trigger node only", () => {
  const runs = plannedRuns([changed("e1", "paid")], [onPaid, onAny], { automationId: "a-any", nodeId: "t2" });
  expect(runs.map((r) => r.automationId)).toEqual(["a-any"]);
});

test("the stamp names each listener once, by id and version, in a fixed order", () => {
  expect(stampOf([onPaid, onAny, onPaid])).toBe("a-any:3:0,a-paid:3:0");
  expect(stampOf([])).toBe("");
});
