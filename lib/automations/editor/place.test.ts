import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import { withPositions } from "./place";

const graph: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {} },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "vip" }, position: { x: 500, y: 900 } },
    { id: "mail", type: "auto.action.send_email", params: {} },
  ],
  edges: [
    { id: "e1", source: "t", sourceHandle: "out", target: "tag" },
    { id: "e2", source: "tag", sourceHandle: "out", target: "mail" },
  ],
};

describe("withPositions", () => {
  test("gives every node without a position one, and keeps the ones it had", () => {
    const placed = withPositions(graph);
    expect(placed.nodes.every((n) => n.position && Number.isInteger(n.position.x))).toBe(true);
    expect(placed.nodes[1]!.position).toEqual({ x: 500, y: 900 });
    expect(placed.nodes[0]!.position!.y).toBeLessThan(900);
    expect(placed.nodes[2]!.position!.y).toBeGreaterThan(900);
    expect(placed.edges).toBe(graph.edges);
  });

  test("a graph whose nodes all have positions comes back as it was", () => {
    const done = withPositions(graph);
    expect(withPositions(done)).toBe(done);
  });
});
