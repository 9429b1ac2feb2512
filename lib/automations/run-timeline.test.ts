import { describe, expect, test } from "vitest";
import { groupByLeg, nodeStatuses, numberOccurrences } from "./run-timeline";

//  leg 1: t ─▶ tag ─▶ w (waiting)      leg 2: w ─▶ tag      (tag runs twice)
const steps = [
  { nodeId: "tag", status: "success", leg: 1 },
  { nodeId: "w", status: "success", leg: 1 },
  { nodeId: "tag", status: "failed", leg: 2 },
];

describe("run timeline", () => {
  test("a node that runs twice gets two distinct keys", () => {
    const numbered = numberOccurrences(steps);
    expect(numbered.map((s) => s.key)).toEqual(["tag#1", "w#1", "tag#2"]);
    expect(new Set(numbered.map((s) => s.key)).size).toBe(steps.length);
  });

  test("steps are grouped by leg in leg order", () => {
    const groups = groupByLeg([steps[2]!, steps[0]!, steps[1]!]);
    expect(groups.map((g) => [g.leg, g.steps.map((s) => s.nodeId)])).toEqual([
      [1, ["tag", "w"]],
      [2, ["tag"]],
    ]);
  });

  test("a node's status is its latest step's", () => {
    expect(nodeStatuses(steps)).toEqual({ tag: "failed", w: "success" });
    expect(nodeStatuses([])).toEqual({});
  });
});
