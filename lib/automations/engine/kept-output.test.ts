import { describe, expect, it } from "vitest";
import { jsonBytes } from "@/lib/automations/nodes/outputs";
import { cutRead, keptOutput } from "./kept-output";

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
