import { describe, expect, it } from "vitest";
import { edge, graph, node } from "@/lib/automations/engine/interpreter.fixtures";
import { registry } from "@/lib/automations/nodes/registry";
import { validate } from "@/lib/automations/review/validate";
import type { Graph } from "./schema";
import { keepBranch as keep } from "./keep-branch";

const keepBranch = (g: Graph, splitId: string, branchId: string) =>
  keep(g, splitId, branchId, (n) => registry.get(n.type)?.category === "trigger");

const split = (id = "split") =>
  node(id, "auto.control.split", {
    branches: [
      { id: "a", label: "Group A", weight: 50 },
      { id: "b", label: "Group B", weight: 50 },
    ],
    by: "customer",
  });

describe("keepBranch", () => {
  // trigger ──▶ split ──a──▶ tagA ──▶ note          trigger ──▶ tagB ──▶ note
  //                  └─b──▶ tagB ──▶ note     ⇒    (tagA gone, note kept: tagB still reaches it)
  const g = graph(
    [
      node("trigger", "auto.trigger.order_paid"),
      split(),
      node("tagA", "auto.action.add_tag", { tag: "got-a" }),
      node("tagB", "auto.action.add_tag", { tag: "got-b" }),
      node("note", "auto.action.add_note", { body: "Split done" }),
    ],
    [
      edge("trigger", "split"),
      edge("split", "tagA", "a"),
      edge("split", "tagB", "b"),
      edge("tagA", "note"),
      edge("tagB", "note"),
    ],
  );

  it("connects what led into the split to the winner, and drops what only the others reached", () => {
    expect(validate(g)).toEqual([]);
    const kept = keepBranch(g, "split", "b")!;
    expect(kept.nodes.map((n) => n.id).sort()).toEqual(["note", "tagB", "trigger"]);
    expect(kept.edges.map((e) => `${e.source}-${e.sourceHandle}->${e.target}`).sort()).toEqual([
      "tagB-out->note",
      "trigger-out->tagB",
    ]);
    expect(validate(kept)).toEqual([]);
  });

  it("keeps steps that were never connected, and says null for a split or branch it does not know", () => {
    const loose = { ...g, nodes: [...g.nodes, node("spare", "auto.action.add_tag", { tag: "x" })] };
    expect(keepBranch(loose, "split", "a")!.nodes.map((n) => n.id)).toContain("spare");
    expect(keepBranch(g, "split", "z")).toBeNull();
    expect(keepBranch(g, "nowhere", "a")).toBeNull();
  });

  // trigger ──▶ check ──true──▶ split ──a──▶ tagA     trigger ──▶ check ──true──▶ tagA
  it("keeps the exit it came in on (a condition's True stays True)", () => {
    const nested = graph(
      [
        node("trigger", "auto.trigger.order_paid"),
        node("check", "auto.condition.has_tag", { tag: "vip" }),
        split(),
        node("tagA", "auto.action.add_tag", { tag: "got-a" }),
        node("tagB", "auto.action.add_tag", { tag: "got-b" }),
      ],
      [
        edge("trigger", "check"),
        edge("check", "split", "true"),
        edge("split", "tagA", "a"),
        edge("split", "tagB", "b"),
      ],
    );
    const kept = keepBranch(nested, "split", "a")!;
    expect(kept.edges.map((e) => `${e.source}-${e.sourceHandle}->${e.target}`)).toEqual([
      "trigger-out->check",
      "check-true->tagA",
    ]);
    expect(kept.nodes.some((n) => n.type === "auto.control.split")).toBe(false);
  });
});
