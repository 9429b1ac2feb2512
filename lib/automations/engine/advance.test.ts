import { describe, expect, it } from "vitest";
import { edge, graph, node, waitNode } from "@/lib/automations/engine/interpreter.fixtures";
import type { Graph } from "@/lib/automations/graph/schema";
import { registry } from "@/lib/automations/nodes/registry";
import { endBranch, nextAction, type WalkMode } from "./advance";
import { evaluatorFor } from "./evaluate";
import { planFrom } from "./interpreter";
import { newLeg } from "./leg";
import type { Leg } from "./leg-state";

/** A leg of `g` from its trigger, about an order tagged `tags`, planned as the pipeline plans it. */
function legOf(g: Graph, tags: string[] = []): Leg {
  const ctx = newLeg({
    tenantId: "t",
    runId: "r",
    automationId: "a",
    automationName: "A",
    automationVersion: 1,
    leg: 1,
    event: {
      id: "e",
      type: "order.paid",
      domain: "order",
      entityId: "o-1",
      entityStatus: "paid",
      payload: {},
      occurredAt: "2026-01-01T00:00:00.000Z",
    },
    entity: { domain: "order", id: "o-1", data: { id: "o-1", tags } },
    now: new Date("2026-01-01T00:00:00.000Z"),
    timeZone: "UTC",
  });
  const plan = planFrom(g, "trigger", registry, evaluatorFor(ctx));
  return { ctx, graph: g, plan, cursor: 0, claim: null, recorded: null, opening: null, outside: null };
}

/** A mode that writes down what the walk passes: `vip?true`, `wait:w`. */
function recorder(): WalkMode & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    condition: (_leg, step) => seen.push(`${step.nodeId}?${step.result}`),
    split: (_leg, step) => seen.push(`${step.nodeId}->${step.choice?.branch ?? "none"}`),
    wait: (_leg, step, wait) =>
      seen.push(`wait:${step.nodeId}:${wait.ok ? wait.resumeAt.toISOString() : "error"}`),
  };
}

describe("nextAction", () => {
  // trigger ──▶ vip? ──true──▶ tag ──▶ w (2 days)
  //                            └────▶ note
  const g = graph(
    [
      node("trigger", "auto.trigger.order_paid"),
      node("vip", "auto.condition.has_tag", { tag: "vip" }),
      node("tag", "auto.action.add_tag", { tag: "seen" }),
      waitNode("w", 2, "days"),
      node("note", "auto.action.add_note", { body: "hi" }),
    ],
    [edge("trigger", "vip"), edge("vip", "tag", "true"), edge("tag", "w"), edge("tag", "note")],
  );

  it("passes conditions and waits to the mode and stops at each action, the cursor on it", () => {
    const leg = legOf(g, ["vip"]);
    const mode = recorder();
    expect(nextAction(leg, mode)?.nodeId).toBe("tag");
    expect(leg.plan[leg.cursor]?.nodeId).toBe("tag");
    expect(mode.seen).toEqual(["vip?true"]);
    // A condition's result is what `{steps.<id>.result}` reads.
    expect(leg.ctx.steps.vip).toEqual({ result: true });

    leg.cursor += 1;
    expect(nextAction(leg, mode)?.nodeId).toBe("note");
    expect(mode.seen).toEqual(["vip?true", "wait:w:2026-01-03T00:00:00.000Z"]);
    leg.cursor += 1;
    expect(nextAction(leg, mode)).toBeNull();
  });

  it("a failed action ends its branch: what only it leads to is taken out of the plan", () => {
    // trigger ──▶ a ──▶ x      trigger ──▶ y ──▶ x: x follows a too, so it does not run
    const diamond = graph(
      [
        node("trigger", "auto.trigger.order_paid"),
        node("a", "auto.action.add_tag", { tag: "a" }),
        node("y", "auto.action.add_tag", { tag: "y" }),
        node("x", "auto.action.add_note", { body: "x" }),
      ],
      [edge("trigger", "a"), edge("trigger", "y"), edge("a", "x"), edge("y", "x")],
    );
    const leg = legOf(diamond);
    const mode = recorder();
    const a = nextAction(leg, mode)!;
    expect(a.nodeId).toBe("a");
    expect([...endBranch(leg, a)]).toEqual(["x"]);
    expect(leg.plan.map((s) => s.nodeId)).toEqual(["a", "y"]);
    expect(nextAction(leg, mode)?.nodeId).toBe("y");
  });
});
