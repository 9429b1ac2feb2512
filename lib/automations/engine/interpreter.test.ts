import { describe, expect, it } from "vitest";
import { edge, graph, node, waitNode, waitUntilNode } from "@/lib/automations/engine/interpreter.fixtures";
import type { GraphNode } from "@/lib/automations/graph/schema";
import { createRegistry, NODE_DEFINITIONS, registry } from "@/lib/automations/nodes/registry";
import {
  MAX_PLANNED_STEPS,
  planFrom,
  STEP_LIMIT_REASON,
  planSteps,
  type Evaluate,
  type PlannedStep,
} from "./interpreter";

const paid = (id = "trigger") => node(id, "auto.trigger.order_paid");
const cond = (id: string) => node(id, "auto.condition.has_tag", { tag: id });
const tag = (id: string) => node(id, "auto.action.add_tag", { tag: id });
const wait = (id: string) => waitNode(id, 2, "days");

/** Conditions decide by a table of results; a condition not in the table is false. */
function decide(results: Record<string, boolean>): Evaluate {
  return (n: GraphNode) => results[n.id] ?? false;
}

/** A plan as short strings: `cond?true`, `action:tag`, `wait:w1`. */
function brief(plan: PlannedStep[]): string[] {
  return plan.map((step) =>
    step.kind === "condition" ? `${step.nodeId}?${step.result}` : `${step.kind}:${step.nodeId}`,
  );
}

describe("planSteps", () => {
  // trigger ──▶ total > 100 ──true──▶ add_tag(vip)
  //                        └─false─▶ add_note
  const branches = graph(
    [
      paid(),
      node("big", "auto.condition.field", { path: "total", operator: "gt", value: 100 }),
      tag("vip"),
      node("note", "auto.action.add_note", { body: "small" }),
    ],
    [edge("trigger", "big"), edge("big", "vip", "true"), edge("big", "note", "false")],
  );

  it("follows only the branch a condition takes", () => {
    expect(brief(planSteps(branches, "auto.trigger.order_paid", registry, decide({ big: true })))).toEqual([
      "big?true",
      "action:vip",
    ]);
    expect(brief(planSteps(branches, "auto.trigger.order_paid", registry, decide({ big: false })))).toEqual([
      "big?false",
      "action:note",
    ]);
  });

  it("hands conditions to the evaluator with their definition, and actions their params", () => {
    const seen: string[] = [];
    const plan = planSteps(branches, "auto.trigger.order_paid", registry, (n, definition) => {
      seen.push(`${n.id}:${definition.type}`);
      return true;
    });
    expect(seen).toEqual(["big:auto.condition.field"]);
    expect(plan[1]).toEqual({
      kind: "action",
      nodeId: "vip",
      nodeType: "auto.action.add_tag",
      params: { tag: "vip" },
    });
  });

  it("returns nothing when no trigger of the type exists", () => {
    expect(planSteps(branches, "auto.trigger.order_created", registry, decide({}))).toEqual([]);
  });

  // trigger ──▶ a ──▶ b
  //        └──▶ c ──▶ d
  it("walks breadth-first", () => {
    const g = graph(
      [paid(), tag("a"), tag("b"), tag("c"), tag("d")],
      [edge("trigger", "a"), edge("a", "b"), edge("trigger", "c"), edge("c", "d")],
    );
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({})))).toEqual([
      "action:a",
      "action:c",
      "action:b",
      "action:d",
    ]);
  });

  // trigger ──▶ a ──▶ c
  //        └──▶ b ──┘
  it("plans a node reached through two branches once", () => {
    const g = graph(
      [paid(), tag("a"), tag("b"), tag("c")],
      [edge("trigger", "a"), edge("trigger", "b"), edge("a", "c"), edge("b", "c")],
    );
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({})))).toEqual([
      "action:a",
      "action:b",
      "action:c",
    ]);
  });

  // trigger ──▶ fly ──▶ a        trigger ──▶ b
  it("skips an unknown node type and what only it leads to", () => {
    const g = graph(
      [paid(), node("fly", "auto.action.fly"), tag("a"), tag("b")],
      [edge("trigger", "fly"), edge("fly", "a"), edge("trigger", "b")],
    );
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({})))).toEqual(["action:b"]);
  });

  // trigger ──▶ a ──▶ b ──▶ a (loop)
  it("does not loop forever on a cycle", () => {
    const g = graph([paid(), tag("a"), tag("b")], [edge("trigger", "a"), edge("a", "b"), edge("b", "a")]);
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({})))).toEqual([
      "action:a",
      "action:b",
    ]);
  });

  // trigger ──▶ a ──▶ trigger2 ──▶ b
  it("stops at a trigger reached mid-walk", () => {
    const g = graph(
      [paid(), tag("a"), paid("trigger2"), tag("b")],
      [edge("trigger", "a"), edge("a", "trigger2"), edge("trigger2", "b")],
    );
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({})))).toEqual(["action:a"]);
  });

  // trigger ──▶ n0 ──▶ n1 ──▶ … ──▶ n500
  it(`refuses a run of more than ${MAX_PLANNED_STEPS} steps`, () => {
    const ids = Array.from({ length: MAX_PLANNED_STEPS + 1 }, (_, i) => `n${i}`);
    const g = graph(
      [paid(), ...ids.map(tag)],
      [edge("trigger", "n0"), ...ids.slice(1).map((id, i) => edge(ids[i] as string, id))],
    );
    expect(() => planSteps(g, "auto.trigger.order_paid", registry, decide({}))).toThrow(STEP_LIMIT_REASON);
    const fits = graph(g.nodes.slice(0, -1), g.edges.slice(0, -1));
    expect(planSteps(fits, "auto.trigger.order_paid", registry, decide({}))).toHaveLength(MAX_PLANNED_STEPS);
  });
});

describe("planFrom and waits", () => {
  // trigger ──▶ add_tag(a) ──▶ wait ──▶ add_tag(b)
  const chain = graph(
    [paid(), tag("a"), wait("w"), tag("b")],
    [edge("trigger", "a"), edge("a", "w"), edge("w", "b")],
  );

  it("plans a wait but not what follows it", () => {
    const plan = planFrom(chain, "trigger", registry, decide({}));
    expect(brief(plan)).toEqual(["action:a", "wait:w"]);
    expect(plan[1]).toEqual({
      kind: "wait",
      nodeId: "w",
      nodeType: "auto.control.wait",
      params: { duration: 2, unit: "days" },
    });
  });

  it("plans what follows a wait when the walk starts there", () => {
    expect(brief(planFrom(chain, "w", registry, decide({})))).toEqual(["action:b"]);
  });

  // trigger ──▶ has_tag(x) ──true──▶ wait ──▶ add_tag(later)
  //        └──▶ add_tag(now) ──▶ add_tag(next)
  it("runs a branch without a wait fully while its sibling pauses", () => {
    const g = graph(
      [paid(), cond("x"), wait("w"), tag("later"), tag("now"), tag("next")],
      [
        edge("trigger", "x"),
        edge("x", "w", "true"),
        edge("w", "later"),
        edge("trigger", "now"),
        edge("now", "next"),
      ],
    );
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({ x: true })))).toEqual([
      "x?true",
      "action:now",
      "wait:w",
      "action:next",
    ]);
    expect(brief(planFrom(g, "w", registry, decide({})))).toEqual(["action:later"]);
  });

  // trigger ──▶ a ──▶ wait1(2 days) ──▶ b ──▶ wait2(9:00 UTC) ──▶ c ──▶ has_tag(x) ──true──▶ d
  it("pauses twice for two sequential waits: three legs", () => {
    const g = graph(
      [paid(), tag("a"), wait("w1"), tag("b"), waitUntilNode("w2"), tag("c"), cond("x"), tag("d")],
      [
        edge("trigger", "a"),
        edge("a", "w1"),
        edge("w1", "b"),
        edge("b", "w2"),
        edge("w2", "c"),
        edge("c", "x"),
        edge("x", "d", "true"),
      ],
    );
    // Leg 1, from the trigger, stops at the first wait.
    expect(brief(planSteps(g, "auto.trigger.order_paid", registry, decide({ x: true })))).toEqual([
      "action:a",
      "wait:w1",
    ]);
    // Leg 2, resuming wait1, stops at the second.
    expect(brief(planFrom(g, "w1", registry, decide({ x: true })))).toEqual(["action:b", "wait:w2"]);
    // Leg 3, resuming wait2, runs the rest.
    expect(brief(planFrom(g, "w2", registry, decide({ x: true })))).toEqual([
      "action:c",
      "x?true",
      "action:d",
    ]);
  });

  // trigger ──▶ wait ──▶ has_tag(x) ──true──▶ add_tag(yes)
  //                                └─false─▶ add_tag(no)
  it("evaluates conditions after a wait when the next leg runs", () => {
    const g = graph(
      [paid(), wait("w"), cond("x"), tag("yes"), tag("no")],
      [edge("trigger", "w"), edge("w", "x"), edge("x", "yes", "true"), edge("x", "no", "false")],
    );
    expect(brief(planFrom(g, "trigger", registry, decide({ x: true })))).toEqual(["wait:w"]);
    expect(brief(planFrom(g, "w", registry, decide({ x: false })))).toEqual(["x?false", "action:no"]);
  });

  // trigger ──▶ has_tag(gate) ──true──▶ add_tag(approved)
  //                          └─false─▶ add_tag(rejected)
  it("follows only the chosen exit of the start node when asked", () => {
    const g = graph(
      [paid(), cond("gate"), tag("approved"), tag("rejected")],
      [edge("trigger", "gate"), edge("gate", "approved", "true"), edge("gate", "rejected", "false")],
    );
    expect(brief(planFrom(g, "gate", registry, decide({}), { startHandle: "false" }))).toEqual([
      "action:rejected",
    ]);
  });

  it("returns nothing for a start node that is not in the graph", () => {
    expect(planFrom(chain, "ghost", registry, decide({}))).toEqual([]);
  });

  // trigger ──▶ a ──▶ wait_until(9:00 Mon–Fri) ──▶ b
  it("treats a wait until like a wait", () => {
    const g = graph(
      [
        paid(),
        tag("a"),
        waitUntilNode("until", { timezone: "Europe/Paris", weekdays: [1, 2, 3, 4, 5] }),
        tag("b"),
      ],
      [edge("trigger", "a"), edge("a", "until"), edge("until", "b")],
    );
    const plan = planSteps(g, "auto.trigger.order_paid", registry, decide({}));
    expect(brief(plan)).toEqual(["action:a", "wait:until"]);
    expect(plan[1]).toMatchObject({ kind: "wait", nodeType: "auto.control.wait_until" });
    expect(brief(planFrom(g, "until", registry, decide({})))).toEqual(["action:b"]);
  });

  it("treats a wait as an unknown step where the registry has no waits", () => {
    const withoutWaits = createRegistry(
      Object.fromEntries(Object.entries(NODE_DEFINITIONS).filter(([, d]) => d.category !== "wait")),
    );
    expect(brief(planFrom(chain, "trigger", withoutWaits, decide({})))).toEqual(["action:a"]);
  });
});
