import { describe, expect, test } from "vitest";
import type { NodeChange } from "@xyflow/react";
import { exitTarget } from "@/lib/automations/editor/add-target";
import type { StepNode } from "@/lib/automations/editor/flow";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph } from "@/lib/automations/graph/schema";
import { catalogOf, type NodeInfo } from "@/lib/automations/nodes/catalog";
import { createEditorStore, selectNextTarget, selectReadOnly, selectSelected } from "./store";

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

const aDryRun: DryRunResult = {
  steps: [],
  path: { nodeIds: ["t"], edgeIds: [] },
  entity: null,
  notes: [],
};

function editor(options: { canEdit?: boolean; draft?: Graph } = {}) {
  return createEditorStore({
    draft: options.draft ?? line,
    catalog,
    name: "Thank big spenders",
    policy: "finish_on_started_version",
    canEdit: options.canEdit ?? true,
  });
}

/** What React Flow sends when a card is clicked: that one selected, the others not. */
function click(id: string, nodes: readonly StepNode[]): NodeChange<StepNode>[] {
  return nodes.map((n) => ({ type: "select", id: n.id, selected: n.id === id }));
}

const ids = (graph: Graph) => graph.nodes.map((n) => n.id);
const edgeIds = (graph: Graph) => graph.edges.map((e) => e.id);

describe("the editor's store", () => {
  test("opens on the draft with the Issues tab, nothing selected and nothing to undo", () => {
    const s = editor().getState();
    expect(ids(s.graph)).toEqual(["t", "w", "tag"]);
    expect(s.panel).toBe("issues");
    expect(selectSelected(s)).toBeUndefined();
    expect(s.history.past).toHaveLength(0);
    expect(selectReadOnly(s)).toBe(false);
  });

  test("two editors do not share state", () => {
    const one = editor();
    const two = editor();
    one.getState().deleteSelected();
    one.getState().onNodesChange(click("w", one.getState().nodes));
    one.getState().deleteSelected();
    expect(ids(one.getState().graph)).toEqual(["t", "tag"]);
    expect(ids(two.getState().graph)).toEqual(["t", "w", "tag"]);
    expect(two.getState().panel).toBe("issues");
  });

  test("adding a step selects it, connects it after the selected step and opens the Step tab", () => {
    const store = editor();
    store.getState().onNodesChange(click("tag", store.getState().nodes));
    store.getState().setPanel("settings");
    store.getState().setDryRun(aDryRun);
    const placed = store.getState().placeStep(wait, { duration: 1, unit: "hours" });
    const s = store.getState();
    expect(placed?.id).toBe("wait");
    expect(selectSelected(s)?.id).toBe("wait");
    expect(s.panel).toBe("step");
    expect(s.graph.edges.at(-1)).toMatchObject({ source: "tag", sourceHandle: "out", target: "wait" });
    // The add target is spent and the dry run's path no longer fits the flow.
    expect(s.addTarget).toBeNull();
    expect(s.dryRun).toBeNull();
    expect(s.history.past).toHaveLength(1);
  });

  test("a chosen exit on a line inserts the new step between its two ends", () => {
    const store = editor();
    store.getState().setAddTarget(exitTarget("t", "out", store.getState().graph));
    expect(selectNextTarget(store.getState())).toEqual({ nodeId: "t", handle: "out", edgeId: "t-out-w" });
    store.getState().placeStep(check, {});
    const { graph } = store.getState();
    expect(graph.edges.some((e) => e.source === "t" && e.target === "field")).toBe(true);
    expect(graph.edges.some((e) => e.source === "field" && e.target === "w")).toBe(true);
    expect(graph.edges.some((e) => e.id === "t-out-w")).toBe(false);
  });

  test("selecting a step opens the Step tab; a tab chosen after it stays until another step is selected", () => {
    const store = editor();
    store.getState().onNodesChange(click("w", store.getState().nodes));
    expect(store.getState().panel).toBe("step");
    store.getState().setPanel("settings");
    // Clicking the canvas's empty space: nothing selected, the tab stays.
    store.getState().onNodesChange(click("none", store.getState().nodes));
    expect(store.getState().panel).toBe("settings");
    store.getState().onNodesChange(click("w", store.getState().nodes));
    expect(store.getState().panel).toBe("step");
    store.getState().setPanel("versions");
    store.getState().onNodesChange(click("tag", store.getState().nodes));
    expect(store.getState().panel).toBe("step");
  });

  test("several steps selected is no step's settings: the tab stays", () => {
    const store = editor();
    store.getState().setPanel("dry-run");
    store.getState().onNodesChange([
      { type: "select", id: "t", selected: true },
      { type: "select", id: "w", selected: true },
    ]);
    expect(selectSelected(store.getState())).toBeUndefined();
    expect(store.getState().panel).toBe("dry-run");
  });

  test("undo and redo put the graph back and forth; a new edit clears redo", () => {
    const store = editor();
    store.getState().onNodesChange(click("w", store.getState().nodes));
    store.getState().deleteSelected();
    expect(ids(store.getState().graph)).toEqual(["t", "tag"]);
    store.getState().undo();
    expect(ids(store.getState().graph)).toEqual(["t", "w", "tag"]);
    expect(store.getState().history.future).toHaveLength(1);
    store.getState().redo();
    expect(ids(store.getState().graph)).toEqual(["t", "tag"]);
    store.getState().undo();
    store.getState().placeStep(tag, {});
    expect(store.getState().history.future).toHaveLength(0);
    // Nothing left to undo past the start: the graph stays.
    store.getState().undo();
    store.getState().undo();
    store.getState().undo();
    expect(ids(store.getState().graph)).toEqual(["t", "w", "tag"]);
  });

  test("deleting a step from the middle of a line bridges it and clears the dry run", () => {
    const store = editor();
    store.getState().setDryRun(aDryRun);
    store.getState().onNodesChange(click("w", store.getState().nodes));
    store.getState().deleteSelected();
    expect(store.getState().graph.edges).toEqual([
      expect.objectContaining({ source: "t", sourceHandle: "out", target: "tag" }),
    ]);
    expect(store.getState().dryRun).toBeNull();
  });

  test("deleting with nothing selected changes nothing and records nothing", () => {
    const store = editor();
    const before = store.getState().graph;
    store.getState().deleteSelected();
    expect(store.getState().graph).toBe(before);
    expect(store.getState().history.past).toHaveLength(0);
  });

  test("copy says how many steps it kept; paste adds them under new ids, selected, each paste lower", () => {
    const store = editor();
    store.getState().onNodesChange([
      { type: "select", id: "w", selected: true },
      { type: "select", id: "tag", selected: true },
    ]);
    store.getState().copy();
    expect(store.getState().flash).toBe("Copied 2 steps.");
    store.getState().paste();
    const first = store.getState().graph.nodes.slice(3);
    expect(first.map((n) => n.position)).toEqual([
      { x: 40, y: 240 },
      { x: 40, y: 440 },
    ]);
    expect(
      store
        .getState()
        .nodes.filter((n) => n.selected)
        .map((n) => n.id),
    ).toEqual(first.map((n) => n.id));
    store.getState().paste();
    expect(
      store
        .getState()
        .graph.nodes.slice(5)
        .map((n) => n.position),
    ).toEqual([
      { x: 80, y: 280 },
      { x: 80, y: 480 },
    ]);
  });

  test("connecting keeps the selection; disconnecting from Next steps keeps the step selected", () => {
    const store = editor();
    store.getState().onNodesChange(click("t", store.getState().nodes));
    store.getState().connect("t", "out", "tag");
    expect(edgeIds(store.getState().graph)).toContain("t-out-tag");
    expect(selectSelected(store.getState())?.id).toBe("t");
    store.getState().disconnect("t-out-w", "t");
    expect(edgeIds(store.getState().graph)).not.toContain("t-out-w");
    expect(selectSelected(store.getState())?.id).toBe("t");
    expect(store.getState().history.past).toHaveLength(2);
  });

  test("typing in a form changes the step's params without an undo step of its own", () => {
    const store = editor();
    store.getState().updateParams("tag", { tag: "gold" });
    expect(store.getState().graph.nodes[2]!.params).toEqual({ tag: "gold" });
    expect(store.getState().history.past).toHaveLength(0);
    store.getState().record(store.getState().graph);
    store.getState().undo();
    expect(store.getState().graph.nodes[2]!.params).toEqual({ tag: "vip" });
  });

  test("a viewer's editor is read-only: no step added, connected, deleted, pasted or dragged", () => {
    const store = editor({ canEdit: false });
    expect(selectReadOnly(store.getState())).toBe(true);
    expect(store.getState().placeStep(tag, {})).toBeNull();
    store.getState().connect("t", "out", "tag");
    store
      .getState()
      .onNodesChange([
        ...click("w", store.getState().nodes),
        { type: "position", id: "w", position: { x: 500, y: 500 } },
        { type: "remove", id: "tag" },
      ]);
    store.getState().deleteSelected();
    store.getState().copy();
    store.getState().paste();
    const s = store.getState();
    expect(ids(s.graph)).toEqual(["t", "w", "tag"]);
    expect(edgeIds(s.graph)).toEqual(["t-out-w", "w-out-tag"]);
    expect(s.graph.nodes[1]!.position).toEqual({ x: 0, y: 200 });
    // Selecting still works: the Step tab shows the step, read-only.
    expect(selectSelected(s)?.id).toBe("w");
    expect(s.panel).toBe("step");
    expect(s.history.past).toHaveLength(0);
  });

  test("viewing an old version, or a phone's narrow screen, makes the canvas read-only until back", () => {
    const store = editor();
    store.getState().setViewing({ version: 1, graph: { nodes: [], edges: [] } });
    expect(selectReadOnly(store.getState())).toBe(true);
    expect(store.getState().placeStep(tag, {})).toBeNull();
    store.getState().setViewing(null);
    store.getState().setAccess({ canEdit: true, narrow: true });
    expect(selectReadOnly(store.getState())).toBe(true);
    store.getState().setAccess({ canEdit: true, narrow: false });
    expect(store.getState().placeStep(tag, {})?.id).toBe("add_tag");
  });

  test("an archived flow (the page says no more editing) refuses edits from then on", () => {
    const store = editor();
    store.getState().setAccess({ canEdit: false, narrow: false });
    store.getState().onNodesChange(click("w", store.getState().nodes));
    store.getState().deleteSelected();
    expect(ids(store.getState().graph)).toEqual(["t", "w", "tag"]);
  });

  test("tidy up lays the flow out with the layout given, as one undo step", () => {
    const store = editor();
    store.getState().tidy((nodes) => nodes.map((n, i) => ({ ...n, position: { x: i * 300, y: 0 } })));
    expect(store.getState().graph.nodes.map((n) => n.position)).toEqual([
      { x: 0, y: 0 },
      { x: 300, y: 0 },
      { x: 600, y: 0 },
    ]);
    store.getState().undo();
    expect(store.getState().graph.nodes[2]!.position).toEqual({ x: 0, y: 400 });
  });
});
