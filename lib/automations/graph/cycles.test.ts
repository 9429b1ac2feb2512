import { describe, expect, it } from "vitest";
import { findCycles } from "./cycles";
import { edge, graph, node } from "@/lib/automations/engine/interpreter.fixtures";

const nodes = (...ids: string[]) => ids.map((id) => node(id, "t"));

describe("findCycles", () => {
  // trigger ──▶ a ──▶ b ──▶ c
  it("finds none in a tree", () => {
    expect(
      findCycles(
        graph(nodes("trigger", "a", "b", "c"), [edge("trigger", "a"), edge("a", "b"), edge("b", "c")]),
      ),
    ).toEqual([]);
  });

  // trigger ──▶ a ──▶ c
  //        └──▶ b ──┘
  it("does not mistake a diamond for a cycle", () => {
    const diamond = graph(nodes("trigger", "a", "b", "c"), [
      edge("trigger", "a"),
      edge("trigger", "b"),
      edge("a", "c"),
      edge("b", "c"),
    ]);
    expect(findCycles(diamond)).toEqual([]);
  });

  // trigger ──▶ a ──▶ b ──▶ c
  //             ▲           │
  //             └───────────┘
  it("finds a loop, listing its nodes in graph order", () => {
    const loop = graph(nodes("trigger", "a", "b", "c"), [
      edge("trigger", "a"),
      edge("a", "b"),
      edge("b", "c"),
      edge("c", "a"),
    ]);
    expect(findCycles(loop)).toEqual([["a", "b", "c"]]);
  });

  // a ──▶ a      b ──▶ c ──▶ b
  it("finds a self-loop and separate loops", () => {
    const two = graph(nodes("a", "b", "c"), [edge("a", "a"), edge("b", "c"), edge("c", "b")]);
    expect(findCycles(two)).toEqual([["a"], ["b", "c"]]);
  });

  it("ignores edges to missing nodes, and survives a long chain", () => {
    expect(findCycles(graph(nodes("a"), [edge("a", "ghost"), edge("ghost", "a")]))).toEqual([]);
    const ids = Array.from({ length: 5000 }, (_, i) => `n${i}`);
    const chain = graph(
      nodes(...ids),
      ids.slice(1).map((id, i) => edge(ids[i] as string, id)),
    );
    expect(findCycles(chain)).toEqual([]);
  });
});
