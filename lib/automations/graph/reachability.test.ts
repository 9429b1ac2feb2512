import { describe, expect, it } from "vitest";
import { edge, graph, node } from "@/lib/automations/engine/interpreter.fixtures";
import { reachableFrom, upstreamOf } from "./reachability";

// trigger ──▶ cond ──true──▶ tag ──▶ note
//                 └─false─▶ email
// island ──▶ task
const g = graph(
  ["trigger", "cond", "tag", "note", "email", "island", "task"].map((id) => node(id, "t")),
  [
    edge("trigger", "cond"),
    edge("cond", "tag", "true"),
    edge("cond", "email", "false"),
    edge("tag", "note"),
    edge("island", "task"),
  ],
);

describe("reachableFrom", () => {
  it("follows every exit, and includes the start", () => {
    expect([...reachableFrom(g, "trigger")].sort()).toEqual(["cond", "email", "note", "tag", "trigger"]);
    expect([...reachableFrom(g, "island")].sort()).toEqual(["island", "task"]);
    expect([...reachableFrom(g, "note")]).toEqual(["note"]);
  });

  // a ──▶ b ──▶ c ──▶ a
  it("walks a cycle once", () => {
    const loop = graph(
      [node("a", "t"), node("b", "t"), node("c", "t")],
      [edge("a", "b"), edge("b", "c"), edge("c", "a")],
    );
    expect([...reachableFrom(loop, "a")].sort()).toEqual(["a", "b", "c"]);
  });
});

describe("upstreamOf", () => {
  it("is every node with a path to the node, not the node itself", () => {
    expect([...upstreamOf(g, "note")].sort()).toEqual(["cond", "tag", "trigger"]);
    expect([...upstreamOf(g, "email")].sort()).toEqual(["cond", "trigger"]);
    expect([...upstreamOf(g, "trigger")]).toEqual([]);
    expect([...upstreamOf(g, "task")]).toEqual(["island"]);
  });

  // trigger ──▶ a ──▶ b
  //             ▲     │
  //             └─────┘
  it("includes the node itself when it is on a cycle", () => {
    const loop = graph(
      [node("trigger", "t"), node("a", "t"), node("b", "t")],
      [edge("trigger", "a"), edge("a", "b"), edge("b", "a")],
    );
    expect([...upstreamOf(loop, "a")].sort()).toEqual(["a", "b", "trigger"]);
  });
});
