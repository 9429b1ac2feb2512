import { describe, expect, it } from "vitest";
import { whereWaiting } from "./impact";

describe("where runs wait, in the impact sentence", () => {
  it("names a wait for an event as one, beside the other kinds", () => {
    expect(
      whereWaiting([
        { label: "Wait 2 days", kind: "delay", count: 1 },
        { label: "Wait up to 3 days for 'Order fulfilled'", kind: "event", count: 2 },
        { label: "Refund?", kind: "approval", count: 1 },
      ]),
    ).toBe(
      "1 run is waiting at 'Wait 2 days', 2 runs are waiting for an event at 'Wait up to 3 days for 'Order fulfilled'', 1 run awaits approval at 'Refund?'",
    );
  });
});
