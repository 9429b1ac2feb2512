import { describe, expect, it } from "vitest";
import { jsonBytes } from "@/lib/automations/nodes/outputs";
import { registry } from "@/lib/automations/nodes/registry";
import { evaluatorFor } from "./evaluate";
import { planFrom } from "./interpreter";
import { edge, graph, node } from "./interpreter.fixtures";
import { cutRead, keptOutput } from "./kept-output";
import { newLeg } from "./leg";

const http = { nodeId: "h", nodeType: "auto.action.http_request" };
const big = (n: number) => ({
  status: 200,
  body: { id: "x", items: Array.from({ length: n }, (_, i) => `item ${i}`) },
});

describe("keptOutput", () => {
  it("keeps a small output as it is", () => {
    const output = big(3);
    expect(keptOutput({ steps: {} }, http, output)).toBe(output);
  });

  it("cuts an answer past 16 KB and names it in the merchant's words", () => {
    const kept = keptOutput({ steps: {} }, http, big(5_000));
    expect(jsonBytes(kept)).toBeLessThanOrEqual(16_000);
    expect(kept.truncated).toMatchObject({
      note: "The answer was larger than 16 KB; only part of it was kept.",
    });
    const steps = { h: kept };
    expect(cutRead(steps, ["h", "body", "items"])).toBe(
      "{steps.h.body.items} was cut: the answer of 'Send HTTP request' was larger than 16 KB.",
    );
    expect(cutRead(steps, ["h", "body", "id"])).toBeNull();
    expect(cutRead(steps, ["h", "status"])).toBeNull();
  });

  it("holds the leg's outputs together to 256 KB: a step after 250 KB of others keeps what is left", () => {
    const others = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`s${i}`, { text: "y".repeat(9_990) }]),
    );
    const kept = keptOutput({ steps: others }, http, big(1_000));
    expect(jsonBytes(kept)).toBeLessThanOrEqual(256_000 - jsonBytes(Object.values(others)) + 100);
    expect(kept.truncated).toMatchObject({
      note: "The run's outputs together passed 256 KB; only part of this answer was kept.",
    });
    // The step's own earlier output does not count against it (a replay holds it again).
    expect(keptOutput({ steps: { h: big(400) } }, http, big(400))).toEqual(big(400));
  });
});

describe("a condition on the cut part of an output", () => {
  //  h (done) ──▶ many? (steps.h.body.items exists) ──true──▶ tag
  //                                                 └─false─▶ note
  const g = graph(
    [
      node("h", "auto.action.http_request", { url: "https://x.test" }),
      node("many", "auto.condition.field", { path: "steps.h.body.items", operator: "exists" }),
      node("fine", "auto.condition.field", { path: "steps.h.body.id", operator: "eq", value: "x" }),
      node("tag", "auto.action.add_tag", { tag: "many" }),
      node("note", "auto.action.add_note", { body: "few" }),
    ],
    [edge("h", "many"), edge("h", "fine"), edge("many", "tag", "true"), edge("many", "note", "false")],
  );
  const leg = newLeg({
    tenantId: "t",
    runId: "r",
    automationId: "a",
    automationName: "A",
    automationVersion: 1,
    leg: 1,
    event: { type: "order.paid", payload: {} } as never,
    entity: null,
    timeZone: "UTC",
  });
  leg.steps.h = keptOutput({ steps: {} }, http, big(5_000));

  it("fails its step naming the cut part and takes neither branch; one on the kept part decides", () => {
    const plan = planFrom(g, "h", registry, evaluatorFor(leg));
    expect(plan).toEqual([
      {
        kind: "condition",
        nodeId: "many",
        nodeType: "auto.condition.field",
        result: false,
        error: "{steps.h.body.items} was cut: the answer of 'Send HTTP request' was larger than 16 KB.",
      },
      { kind: "condition", nodeId: "fine", nodeType: "auto.condition.field", result: true },
    ]);
  });
});
