import { describe, expect, it } from "vitest";
import { edge, graph, node } from "@/lib/automations/engine/interpreter.fixtures";
import { planFrom, type Evaluate } from "@/lib/automations/engine/interpreter";
import { registry, summariseNode } from "@/lib/automations/nodes/registry";
import { validate } from "@/lib/automations/review/validate";
import { chooseBranch, split, splitParams } from "./split";
import { formatShare } from "./split-branches";

const branches = (...weights: number[]) =>
  weights.map((weight, i) => ({
    id: String.fromCharCode(97 + i),
    label: `Group ${String.fromCharCode(65 + i)}`,
    weight,
  }));
const splitNode = (params: Record<string, unknown>) => node("split", "auto.control.split", params);

// trigger ──▶ split ──a──▶ tagA
//                  └─b──▶ tagB
function flowWith(params: Record<string, unknown>, exits = ["a", "b"]) {
  return graph(
    [
      node("trigger", "auto.trigger.order_paid"),
      splitNode(params),
      ...exits.map((id) => node(`tag${id}`, "auto.action.add_tag", { tag: `got-${id}` })),
    ],
    [edge("trigger", "split"), ...exits.map((id) => edge("split", `tag${id}`, id))],
  );
}
const messages = (g: unknown) => validate(g).map((i) => i.message);

describe("the Split step", () => {
  it("maps a position through cumulative weights: 80/20 cuts [0, 1) at 0.8", () => {
    const params = splitParams.parse({ branches: branches(80, 20) });
    expect(params.by).toBe("customer");
    expect(chooseBranch(params, 0)).toEqual({ branch: "a", label: "Group A", weight: 80, share: 0.8 });
    expect(chooseBranch(params, 0.7999)?.branch).toBe("a");
    expect(chooseBranch(params, 0.8)?.branch).toBe("b");
    expect(chooseBranch(params, 0.999999)).toEqual({ branch: "b", label: "Group B", weight: 20, share: 0.2 });
    expect(chooseBranch(splitParams.parse({ branches: branches(0, 0) }), 0.5)).toBeNull();
  });

  it("reads as a sentence on the canvas, with each share", () => {
    expect(summariseNode(splitNode({ branches: branches(60, 40), by: "customer" }))).toBe(
      "Split customers: Group A 60 % · Group B 40 %",
    );
    expect(summariseNode(splitNode({ branches: branches(1, 1, 1), by: "record" }))).toBe(
      "Split records: Group A 33.3 % · Group B 33.3 % · Group C 33.3 %",
    );
    expect(formatShare(0.4)).toBe("40 %");
    expect(split.defaultParams().branches).toHaveLength(2);
  });

  it("is ready when every branch has a weight above 0 and a step after it", () => {
    expect(validate(flowWith({ branches: branches(50, 50) }))).toEqual([]);
  });

  it("asks for 2 to 5 branches, weights above 0, distinct ids and a step on every branch", () => {
    expect(messages(flowWith({ branches: branches(100) }, ["a"]))).toContain(
      "A split needs at least 2 branches; add another.",
    );
    expect(
      messages(flowWith({ branches: branches(1, 1, 1, 1, 1, 1) }, ["a", "b", "c", "d", "e", "f"])),
    ).toContain("A split can have at most 5 branches; remove 1.");
    expect(messages(flowWith({ branches: branches(50, 0) }))).toContain(
      "'Group B' has a weight of 0; give it a weight above 0.",
    );
    expect(messages(flowWith({ branches: branches(0, 0) }))).toContain(
      "The branches' weights add up to nothing; give each branch a weight above 0.",
    );
    const twice = [
      { id: "a", label: "Group A", weight: 1 },
      { id: "a", label: "Group B", weight: 1 },
    ];
    expect(messages(flowWith({ branches: twice }, ["a"]))).toContain(
      "Two branches have the id 'a'; give each branch its own id.",
    );
    expect(messages(flowWith({ branches: branches(50, 50, 50) }))).toContain(
      "'Group C' leads nowhere: connect it to a step.",
    );
  });

  it("refuses a connection from an exit that is not one of its branches", () => {
    const g = flowWith({ branches: branches(50, 50) });
    g.edges.push(edge("split", "taga", "z"));
    expect(messages(g)).toContain(
      "Condition 'Split customers: Group A 50 % · Group B 50 %' has no 'z' exit.",
    );
  });

  it("is planned as the branch its evaluator chooses, and only that branch is walked", () => {
    const g = flowWith({ branches: branches(50, 50) });
    const evaluate: Evaluate = () => false;
    evaluate.split = (n, definition) => definition.split(splitParams.parse(n.params), 0.75)!;
    expect(planFrom(g, "trigger", registry, evaluate).map((s) => s.nodeId)).toEqual(["split", "tagb"]);
    // Without a way to choose, nothing after the split is walked and its step says why.
    const [step, ...rest] = planFrom(g, "trigger", registry, () => false);
    expect(step).toMatchObject({ kind: "split", choice: null, error: "This split cannot be decided here." });
    expect(rest).toEqual([]);
  });
});
