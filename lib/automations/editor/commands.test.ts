import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import { catalogOf, type NodeInfo } from "@/lib/automations/nodes/catalog";
import {
  addStep,
  connect,
  copySteps,
  deleteSelection,
  disconnect,
  insertStep,
  pasteSteps,
  tidy,
} from "./commands";
import { asBranch, exitTarget } from "./add-target";
import { recordEdit, startHistory, undoEdit } from "./history";
import { toFlow } from "./flow";
import { NODE_HEIGHT, NODE_WIDTH } from "./node-size";

const info = (type: string, category: NodeInfo["category"], out: string[], entrance = true): NodeInfo => ({
  type,
  category,
  label: type,
  description: "",
  handles: { in: entrance, out },
});
const paid = info("auto.trigger.order_paid", "trigger", ["out"], false);
const check = info("auto.condition.field", "condition", ["true", "false"]);
const tag = info("auto.action.add_tag", "action", ["out"]);
const wait = info("auto.control.wait", "wait", ["out"]);
const catalog = catalogOf([paid, check, tag, wait]);

// t (order paid) ──▶ w (wait) ──▶ tag
const line: Graph = {
  nodes: [
    { id: "t", type: paid.type, params: {}, position: { x: 0, y: 0 } },
    { id: "w", type: wait.type, params: { duration: 2, unit: "days" }, position: { x: 0, y: 200 } },
    { id: "tag", type: tag.type, params: { tag: "vip" }, position: { x: 0, y: 400 } },
  ],
  edges: [
    { id: "t-out-w", source: "t", sourceHandle: "out", target: "w" },
    { id: "w-out-tag", source: "w", sourceHandle: "out", target: "tag" },
  ],
};

describe("addStep", () => {
  test("a step after an exit goes under it and is connected from it", () => {
    const added = addStep(line, tag, { tag: "new" }, { nodeId: "tag", handle: "out" }, catalog);
    expect(added.id).toBe("add_tag");
    expect(added.position).toEqual({ x: 0, y: 400 + NODE_HEIGHT + 80 });
    expect(added.graph.nodes.at(-1)).toEqual({
      id: "add_tag",
      type: tag.type,
      params: { tag: "new" },
      position: added.position,
    });
    expect(added.graph.edges.at(-1)).toEqual({
      id: "tag-out-add_tag",
      source: "tag",
      sourceHandle: "out",
      target: "add_tag",
    });
  });

  test("after a condition, the true branch goes left and the false branch right", () => {
    const withCheck = addStep(line, check, {}, { nodeId: "tag", handle: "out" }, catalog).graph;
    const yes = addStep(withCheck, tag, {}, { nodeId: "field", handle: "true" }, catalog);
    const no = addStep(withCheck, tag, {}, { nodeId: "field", handle: "false" }, catalog);
    expect(yes.position.x).toBe(-(NODE_WIDTH + 80) / 2);
    expect(no.position.x).toBe((NODE_WIDTH + 80) / 2);
  });

  test("with no target a step goes under the lowest one, unconnected", () => {
    const added = addStep(line, tag, {}, null, catalog);
    expect(added.position).toEqual({ x: 0, y: 400 + NODE_HEIGHT + 80 });
    expect(added.graph.edges).toBe(line.edges);
  });

  test("the first step of an empty flow goes at the origin", () => {
    expect(addStep({ nodes: [], edges: [] }, tag, {}, null, catalog).position).toEqual({ x: 0, y: 0 });
  });

  test("a trigger stands alone above everything, whatever the target", () => {
    const added = addStep(line, paid, {}, { nodeId: "tag", handle: "out" }, catalog);
    expect(added.position).toEqual({ x: 0, y: -NODE_HEIGHT - 80 });
    expect(added.graph.edges).toBe(line.edges);
  });
});

/** Whether any two steps' cards overlap on the canvas. */
function overlapping(graph: Graph): string[] {
  const found: string[] = [];
  for (const a of graph.nodes)
    for (const b of graph.nodes) {
      if (a.id >= b.id || !a.position || !b.position) continue;
      const apart =
        Math.abs(a.position.x - b.position.x) >= NODE_WIDTH ||
        Math.abs(a.position.y - b.position.y) >= NODE_HEIGHT;
      if (!apart) found.push(`${a.id}/${b.id}`);
    }
  return found;
}

const pathOf = (graph: Graph) => graph.edges.map((e) => `${e.source} -${e.sourceHandle}-> ${e.target}`);

describe("insertStep", () => {
  // t (order paid) ──▶ a (add tag), close together as a merchant draws them
  const short: Graph = {
    nodes: [
      { id: "t", type: paid.type, params: {}, position: { x: 0, y: 0 } },
      { id: "a", type: tag.type, params: { tag: "vip" }, position: { x: 0, y: 160 } },
    ],
    edges: [{ id: "t-out-a", source: "t", sourceHandle: "out", target: "a" }],
  };

  test('"+" on a plain line puts the step between its ends, and the steps below move down', () => {
    const target = exitTarget("t", "out", short);
    expect(target.edgeId).toBe("t-out-a");
    const added = addStep(short, wait, { duration: 1, unit: "days" }, target, catalog);
    expect(added.id).toBe("wait");
    expect(pathOf(added.graph)).toEqual(["t -out-> wait", "wait -out-> a"]);
    // The new step takes the old target's place; the target moves one row down.
    expect(added.position).toEqual({ x: 0, y: 160 });
    expect(added.graph.nodes.find((n) => n.id === "a")?.position).toEqual({
      x: 0,
      y: 160 + NODE_HEIGHT + 80,
    });
    expect(added.graph.nodes.find((n) => n.id === "t")?.position).toEqual({ x: 0, y: 0 });
    expect(overlapping(added.graph)).toEqual([]);
  });

  test("in a longer line every step below moves, keeping its shape", () => {
    const added = addStep(line, tag, {}, exitTarget("t", "out", line), catalog);
    expect(pathOf(added.graph)).toEqual(["t -out-> add_tag", "add_tag -out-> w", "w -out-> tag"]);
    const y = (id: string) => added.graph.nodes.find((n) => n.id === id)?.position?.y;
    expect(y("add_tag")).toBe(200);
    expect(y("w")).toBe(200 + NODE_HEIGHT + 80);
    expect(y("tag")! - y("w")!).toBe(200);
    expect(overlapping(added.graph)).toEqual([]);
  });

  test("on a condition's False line the new step keeps the False exit, and the True side moves clear", () => {
    //            ┌─true──▶ yes
    // t ──▶ check
    //            └─false─▶ no
    const branches: Graph = {
      nodes: [
        { id: "t", type: paid.type, params: {}, position: { x: 0, y: 0 } },
        { id: "check", type: check.type, params: {}, position: { x: 0, y: 160 } },
        { id: "yes", type: tag.type, params: { tag: "vip" }, position: { x: -170, y: 320 } },
        { id: "no", type: tag.type, params: { tag: "new" }, position: { x: 170, y: 320 } },
      ],
      edges: [
        { id: "t-out-check", source: "t", sourceHandle: "out", target: "check" },
        { id: "check-true-yes", source: "check", sourceHandle: "true", target: "yes" },
        { id: "check-false-no", source: "check", sourceHandle: "false", target: "no" },
      ],
    };
    const added = addStep(branches, wait, {}, exitTarget("check", "false", branches), catalog);
    expect(pathOf(added.graph)).toEqual([
      "t -out-> check",
      "check -true-> yes",
      "check -false-> wait",
      "wait -out-> no",
    ]);
    expect(added.position).toEqual({ x: 170, y: 320 });
    expect(overlapping(added.graph)).toEqual([]);
    // A condition inserted on the True line hangs what followed from its own first exit.
    const nested = addStep(branches, check, {}, exitTarget("check", "true", branches), catalog);
    expect(pathOf(nested.graph)).toContain("check -true-> field");
    expect(pathOf(nested.graph)).toContain("field -true-> yes");
    expect(overlapping(nested.graph)).toEqual([]);
  });

  test("a line going up: the new step goes under its source, and what is below moves clear", () => {
    const loop: Graph = {
      nodes: [
        { id: "t", type: paid.type, params: {}, position: { x: 0, y: 0 } },
        { id: "a", type: tag.type, params: {}, position: { x: 0, y: 160 } },
        { id: "b", type: tag.type, params: {}, position: { x: 0, y: 320 } },
      ],
      edges: [
        { id: "t-out-a", source: "t", sourceHandle: "out", target: "a" },
        { id: "a-out-b", source: "a", sourceHandle: "out", target: "b" },
        { id: "b-out-a", source: "b", sourceHandle: "out", target: "a" },
      ],
    };
    const added = addStep(loop, wait, {}, { nodeId: "b", handle: "out", edgeId: "b-out-a" }, catalog);
    expect(pathOf(added.graph)).toEqual(["t -out-> a", "a -out-> b", "b -out-> wait", "wait -out-> a"]);
    expect(added.position).toEqual({ x: 0, y: 320 + NODE_HEIGHT + 80 });
    expect(overlapping(added.graph)).toEqual([]);
  });

  test('"Add a parallel branch" keeps the line and adds a second one beside it', () => {
    const added = addStep(short, wait, {}, asBranch(exitTarget("t", "out", short)), catalog);
    expect(pathOf(added.graph)).toEqual(["t -out-> a", "t -out-> wait"]);
  });

  test("a step without an exit, a trigger, or a line that is gone: added as before", () => {
    const end = info("auto.action.end", "action", []);
    expect(insertStep(short, end, {}, "t-out-a", catalog)).toBeNull();
    expect(pathOf(addStep(short, end, {}, exitTarget("t", "out", short), catalog).graph)).toEqual([
      "t -out-> a",
      "t -out-> end",
    ]);
    expect(addStep(short, paid, {}, exitTarget("t", "out", short), catalog).graph.edges).toBe(short.edges);
    expect(insertStep(short, wait, {}, "gone", catalog)).toBeNull();
  });

  test("one undo takes the whole insertion back", () => {
    const added = addStep(short, wait, {}, exitTarget("t", "out", short), catalog);
    const history = recordEdit(startHistory(short), added.graph);
    const undone = undoEdit(history);
    expect(undone?.present).toBe(short);
    expect(undone?.future[0]).toBe(added.graph);
  });
});

describe("connect and disconnect", () => {
  test("connects an exit to a step once", () => {
    const next = connect(line, "t", "out", "tag");
    expect(next?.edges.at(-1)).toEqual({ id: "t-out-tag", source: "t", sourceHandle: "out", target: "tag" });
    expect(connect(next!, "t", "out", "tag")).toBeNull();
  });

  test("a step is never connected to itself", () => {
    expect(connect(line, "w", "out", "w")).toBeNull();
  });

  test("disconnect removes just that connection", () => {
    expect(disconnect(line, "t-out-w").edges.map((e) => e.id)).toEqual(["w-out-tag"]);
  });
});

describe("deleteSelection", () => {
  test("nothing selected, nothing to do", () => {
    expect(deleteSelection(line, [], [])).toBeNull();
  });

  test("a step in the middle of a line is bridged", () => {
    const next = deleteSelection(line, ["w"], []);
    expect(next?.nodes.map((n) => n.id)).toEqual(["t", "tag"]);
    expect(next?.edges.map((e) => [e.source, e.target])).toEqual([["t", "tag"]]);
  });

  test("a selected connection goes on its own", () => {
    expect(deleteSelection(line, [], ["w-out-tag"])?.edges.map((e) => e.id)).toEqual(["t-out-w"]);
  });
});

describe("copy and paste", () => {
  test("copy keeps the selected steps and only the connections between them", () => {
    expect(copySteps(line, [])).toBeNull();
    const copied = copySteps(line, ["w", "tag"]);
    expect(copied?.nodes.map((n) => n.id)).toEqual(["w", "tag"]);
    expect(copied?.edges.map((e) => e.id)).toEqual(["w-out-tag"]);
  });

  test("paste adds copies under new ids, offset, connected among themselves", () => {
    const copied = copySteps(line, ["w", "tag"])!;
    const first = pasteSteps(line, copied);
    expect(first.ids).toEqual(["wait", "add_tag"]);
    expect(first.graph.nodes.slice(3)).toEqual([
      { id: "wait", type: wait.type, params: { duration: 2, unit: "days" }, position: { x: 40, y: 240 } },
      { id: "add_tag", type: tag.type, params: { tag: "vip" }, position: { x: 40, y: 440 } },
    ]);
    expect(first.graph.edges.slice(2)).toEqual([
      { id: "wait-out-add_tag", source: "wait", sourceHandle: "out", target: "add_tag" },
    ]);
    // Pasting again puts the next copy below the last one, under fresh ids.
    const second = pasteSteps(first.graph, first.pasted);
    expect(second.ids).toEqual(["wait_2", "add_tag_2"]);
    expect(second.graph.nodes.at(-1)?.position).toEqual({ x: 80, y: 480 });
    expect(second.graph.nodes.length).toBe(7);
  });
});

describe("tidy", () => {
  test("places every step by the layout given, and keeps the connections", () => {
    const { nodes, edges } = toFlow(line, catalog);
    const stacked = tidy(nodes, edges, (ns) =>
      ns.map((n, i) => ({ ...n, position: { x: 10.4, y: i * 100 } })),
    );
    expect(stacked.nodes.map((n) => n.position)).toEqual([
      { x: 10, y: 0 },
      { x: 10, y: 100 },
      { x: 10, y: 200 },
    ]);
    expect(stacked.edges).toEqual(line.edges);
  });
});
