import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import { catalogOf } from "@/lib/automations/nodes/catalog";
import { addTargetLabel, asBranch, exitOffset, exitTarget, firstFreeExit, nextAddTarget } from "./add-target";
import { NODE_WIDTH } from "./node-size";

const catalog = catalogOf([
  {
    type: "auto.condition.field",
    category: "condition",
    label: "Check a field",
    description: "",
    handles: { in: true, out: ["true", "false"] },
  },
  {
    type: "auto.action.add_tag",
    category: "action",
    label: "Add tag",
    description: "",
    handles: { in: true, out: ["out"] },
  },
  {
    type: "auto.action.end",
    category: "action",
    label: "End",
    description: "",
    handles: { in: true, out: [] },
  },
]);

// check ──true──▶ tag
const graph: Graph = {
  nodes: [
    { id: "check", type: "auto.condition.field", params: {} },
    { id: "tag", type: "auto.action.add_tag", params: {} },
    { id: "end", type: "auto.action.end", params: {} },
  ],
  edges: [{ id: "e1", source: "check", sourceHandle: "true", target: "tag" }],
};
const [check, tag, end] = graph.nodes;

describe("the add target", () => {
  test("a step's first exit with nothing connected, else its first exit, else none", () => {
    expect(firstFreeExit(check!, graph, catalog)).toEqual({ nodeId: "check", handle: "false" });
    expect(firstFreeExit(tag!, graph, catalog)).toEqual({ nodeId: "tag", handle: "out" });
    const bothTaken = {
      ...graph,
      edges: [...graph.edges, { id: "e2", source: "check", sourceHandle: "false", target: "tag" }],
    };
    expect(firstFreeExit(check!, bothTaken, catalog)).toEqual({ nodeId: "check", handle: "true" });
    expect(firstFreeExit(end!, graph, catalog)).toBeNull();
  });

  test("the exit clicked wins over the selected step's", () => {
    const clicked = { nodeId: "check", handle: "true" };
    expect(nextAddTarget(clicked, tag, graph, catalog)).toBe(clicked);
    expect(nextAddTarget(null, tag, graph, catalog)).toEqual({ nodeId: "tag", handle: "out" });
    expect(nextAddTarget(null, undefined, graph, catalog)).toBeNull();
  });

  test("the palette names the step, and the exit when it has several", () => {
    const label = (id: string) => `the ${id}`;
    expect(addTargetLabel({ nodeId: "tag", handle: "out" }, graph, catalog, label)).toBe("after 'the tag'");
    expect(addTargetLabel({ nodeId: "check", handle: "false" }, graph, catalog, label)).toBe(
      "after 'the check' (False)",
    );
    expect(addTargetLabel({ nodeId: "gone", handle: "out" }, graph, catalog, label)).toBeNull();
    expect(addTargetLabel(null, graph, catalog, label)).toBeNull();
  });

  test('"+" on a connected exit inserts on its connection; a free exit adds after it', () => {
    const label = (id: string) => `the ${id}`;
    const onLine = exitTarget("check", "true", graph);
    expect(onLine).toEqual({ nodeId: "check", handle: "true", edgeId: "e1" });
    expect(addTargetLabel(onLine, graph, catalog, label)).toBe("between 'the check' (True) and 'the tag'");
    expect(exitTarget("check", "false", graph)).toEqual({ nodeId: "check", handle: "false" });
    // "Add a parallel branch" instead: the same exit, a new line beside the one it has.
    expect(asBranch(onLine)).toEqual({ nodeId: "check", handle: "true" });
    expect(addTargetLabel(asBranch(onLine), graph, catalog, label)).toBe("after 'the check' (True)");
  });

  test("a branch's new step goes under its own exit", () => {
    expect(exitOffset("auto.condition.field", "true", catalog)).toBe(-(NODE_WIDTH + 80) / 2);
    expect(exitOffset("auto.condition.field", "false", catalog)).toBe((NODE_WIDTH + 80) / 2);
    expect(exitOffset("auto.action.add_tag", "out", catalog)).toBe(0);
  });
});
