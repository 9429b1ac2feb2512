import { describe, expect, test } from "vitest";
import { graphSchema, type Graph } from "@/lib/automations/graph/schema";
import { fromFlow, newEdgeId, newNodeId, removeSteps, toFlow } from "./flow";
import { registry } from "@/lib/automations/nodes/registry";
import { autoLayout, NODE_HEIGHT, NODE_WIDTH } from "./layout";

//  t (order_paid) ──▶ check (total > 100) ──true──▶ tag (add_tag vip)
//                                         └─false─▶ wait (2 days) ──▶ mail
const positioned: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
    {
      id: "check",
      type: "auto.condition.field",
      params: { path: "total", operator: "gt", value: 100 },
      position: { x: 0, y: 150 },
    },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "vip" }, position: { x: -150, y: 300 } },
    {
      id: "wait",
      type: "auto.control.wait",
      params: { duration: 2, unit: "days" },
      position: { x: 150, y: 300 },
    },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject: "Hi", body: "Thanks" },
      position: { x: 150, y: 450 },
    },
    { id: "odd", type: "auto.action.teleport", params: { where: "moon" }, position: { x: 400, y: 0 } },
  ],
  edges: [
    { id: "e1", source: "t", sourceHandle: "out", target: "check" },
    { id: "e2", source: "check", sourceHandle: "true", target: "tag" },
    { id: "e3", source: "check", sourceHandle: "false", target: "wait" },
    { id: "e4", source: "wait", sourceHandle: "out", target: "mail" },
  ],
};

const unpositioned = (graph: Graph): Graph => ({
  ...graph,
  nodes: graph.nodes.map(({ position: _position, ...node }) => node),
});

describe("toFlow / fromFlow", () => {
  test("round trip: a graph with positions comes back unchanged", () => {
    const { nodes, edges } = toFlow(positioned, registry);
    expect(fromFlow(nodes, edges)).toEqual(positioned);
  });

  test("node kinds are registry categories, unknown types are 'unknown'; edges keep their handles", () => {
    const { nodes, edges } = toFlow(positioned, registry);
    expect(Object.fromEntries(nodes.map((n) => [n.id, n.type]))).toEqual({
      t: "trigger",
      check: "condition",
      tag: "action",
      wait: "wait",
      mail: "action",
      odd: "unknown",
    });
    expect(nodes[1]!.data).toEqual({ type: "auto.condition.field", params: positioned.nodes[1]!.params });
    expect(edges[1]).toEqual({
      id: "e2",
      source: "check",
      sourceHandle: "true",
      target: "tag",
      targetHandle: "in",
    });
  });

  test("nodes without positions are laid out top to bottom, without overlapping", () => {
    const { nodes } = toFlow(unpositioned(positioned), registry, autoLayout);
    const y = Object.fromEntries(nodes.map((n) => [n.id, n.position.y]));
    expect(y.t).toBeLessThan(y.check!);
    expect(y.check).toBeLessThan(y.tag!);
    expect(y.wait).toBeLessThan(y.mail!);
    for (const a of nodes)
      for (const b of nodes) {
        if (a === b) continue;
        const apart =
          Math.abs(a.position.x - b.position.x) >= NODE_WIDTH ||
          Math.abs(a.position.y - b.position.y) >= NODE_HEIGHT;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    // The graph that comes back has integer positions for every node and still parses.
    const graph = fromFlow(nodes, toFlow(positioned, registry).edges);
    expect(graph.nodes.every((n) => n.position && Number.isInteger(n.position.x))).toBe(true);
    expect(graphSchema.safeParse(graph).success).toBe(true);
  });

  test("a node without a position among placed ones lands near them, below its source", () => {
    const graph: Graph = {
      ...positioned,
      nodes: positioned.nodes.map((n) =>
        n.id === "mail" ? { id: n.id, type: n.type, params: n.params } : n,
      ),
    };
    const mail = toFlow(graph, registry, autoLayout).nodes.find((n) => n.id === "mail")!;
    const placedOthers = toFlow(graph, registry, autoLayout).nodes.filter((n) => n.id !== "mail");
    expect(placedOthers.map((n) => n.position)).toEqual(
      positioned.nodes.filter((n) => n.id !== "mail").map((n) => n.position),
    );
    expect(mail.position.y).toBeGreaterThan(300);
    expect(Math.abs(mail.position.x)).toBeLessThan(1000);
  });

  test("fromFlow rounds positions, drops React Flow fields and defaults the handle to 'out'", () => {
    const graph = fromFlow(
      [
        {
          id: "t",
          type: "trigger",
          position: { x: 10.4, y: 20.6 },
          data: { type: "auto.trigger.order_created", params: {} },
          selected: true,
          measured: { width: 260, height: 84 },
          dragging: false,
        },
        {
          id: "tag",
          type: "action",
          position: { x: -0.5, y: 99.5 },
          data: { type: "auto.action.add_tag", params: { tag: "x" } },
        },
      ],
      [{ id: "e", source: "t", target: "tag", targetHandle: "in", selected: true, animated: true }],
    );
    expect(graph).toEqual({
      nodes: [
        { id: "t", type: "auto.trigger.order_created", params: {}, position: { x: 10, y: 21 } },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "x" }, position: { x: -0, y: 100 } },
      ],
      edges: [{ id: "e", source: "t", sourceHandle: "out", target: "tag" }],
    });
  });

  test("an empty graph is empty both ways", () => {
    expect(toFlow({ nodes: [], edges: [] }, registry)).toEqual({ nodes: [], edges: [] });
    expect(fromFlow([], [])).toEqual({ nodes: [], edges: [] });
    expect(autoLayout([], [])).toEqual([]);
  });
});

describe("autoLayout", () => {
  test("LR puts the trigger on the left of what follows", () => {
    const { nodes, edges } = toFlow(unpositioned(positioned), registry, autoLayout);
    const laid = autoLayout(nodes, edges, { direction: "LR" });
    const x = Object.fromEntries(laid.map((n) => [n.id, n.position.x]));
    expect(x.t).toBeLessThan(x.check!);
    expect(x.check).toBeLessThan(x.tag!);
  });
});

describe("new ids", () => {
  const idPattern = /^[A-Za-z0-9_-]{1,100}$/;

  test("node ids are the type's last word, numbered when taken", () => {
    expect(newNodeId("auto.action.add_tag", [])).toBe("add_tag");
    expect(newNodeId("auto.action.add_tag", ["add_tag"])).toBe("add_tag_2");
    expect(newNodeId("auto.action.add_tag", new Set(["add_tag", "add_tag_2"]))).toBe("add_tag_3");
    expect(newNodeId("weird type!", [])).toBe("weird_type");
    expect(newNodeId("...", [])).toBe("step");
    expect(newNodeId("x".repeat(300), ["x".repeat(100)])).toMatch(idPattern);
  });

  test("edge ids name both ends and the handle, and are valid ids", () => {
    expect(newEdgeId("check", "true", "tag", [])).toBe("check-true-tag");
    expect(newEdgeId("check", "true", "tag", ["check-true-tag"])).toBe("check-true-tag_2");
    const long = newEdgeId("a".repeat(100), "out", "b".repeat(100), []);
    expect(long).toMatch(idPattern);
    expect(newEdgeId("a", "we ird", "b", [])).toMatch(idPattern);
  });
});

describe("removeSteps", () => {
  const node = (id: string, type: string) => ({ id, type, params: {}, position: { x: 0, y: 0 } });
  const edge = (source: string, target: string, sourceHandle = "out") => ({
    id: `${source}-${sourceHandle}-${target}`,
    source,
    sourceHandle,
    target,
  });
  const links = (graph: Graph) => graph.edges.map((e) => `${e.source}.${e.sourceHandle}→${e.target}`).sort();

  //  t ──▶ wait ──▶ tag          delete wait  ⇒   t ──▶ tag
  test("a step in the middle of a line is bridged", () => {
    const graph: Graph = {
      nodes: [
        node("t", "auto.trigger.order_paid"),
        node("wait", "auto.control.wait"),
        node("tag", "auto.action.add_tag"),
      ],
      edges: [edge("t", "wait"), edge("wait", "tag")],
    };
    const after = removeSteps(graph, ["wait"]);
    expect(after.nodes.map((n) => n.id)).toEqual(["t", "tag"]);
    expect(links(after)).toEqual(["t.out→tag"]);
    expect(graphSchema.safeParse(after).success).toBe(true);
  });

  //  check ─yes─▶ a ──▶ b ──▶ c      delete a and b together  ⇒  check ─yes─▶ c
  test("steps deleted together bridge through each other, keeping the branch they hung from", () => {
    const graph: Graph = {
      nodes: ["check", "a", "b", "c"].map((id) => node(id, "auto.action.add_tag")),
      edges: [edge("check", "a", "true"), edge("a", "b"), edge("b", "c")],
    };
    expect(links(removeSteps(graph, ["a", "b"]))).toEqual(["check.true→c"]);
  });

  //  t ──▶ check ─yes─▶ vip          delete check  ⇒  t    vip    plain   (no guess at a branch)
  //             └─no──▶ plain
  test("a step whose exits lead to different places is not bridged", () => {
    const graph: Graph = {
      nodes: [
        node("t", "auto.trigger.order_paid"),
        node("check", "auto.condition.order_total"),
        node("vip", "auto.action.add_tag"),
        node("plain", "auto.action.add_tag"),
      ],
      edges: [edge("t", "check"), edge("check", "vip", "true"), edge("check", "plain", "false")],
    };
    expect(links(removeSteps(graph, ["check"]))).toEqual([]);
  });

  //  a ──▶ x ──▶ c      delete x, where a ──▶ c already exists  ⇒  one a ──▶ c
  //  └───────────▲
  test("no duplicate connection, and a deleted connection is gone without a bridge", () => {
    const graph: Graph = {
      nodes: ["a", "x", "c"].map((id) => node(id, "auto.action.add_tag")),
      edges: [edge("a", "x"), edge("x", "c"), edge("a", "c")],
    };
    expect(links(removeSteps(graph, ["x"]))).toEqual(["a.out→c"]);
    expect(links(removeSteps(graph, [], ["a-out-c"]))).toEqual(["a.out→x", "x.out→c"]);
  });
});
