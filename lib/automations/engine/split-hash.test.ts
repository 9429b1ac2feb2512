import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/db/schema";
import { chooseBranch, splitParams } from "@/lib/automations/nodes/split/split";
import { splitPosition, splitSubject } from "./split-hash";

const event: RunEvent = {
  id: "ev-1",
  type: "order.paid",
  domain: "order",
  entityId: "o-1",
  entityStatus: "paid",
  payload: {},
  occurredAt: "2026-12-07T10:00:00.000Z",
};
const order = (id: string, data: Record<string, unknown>) => ({ domain: "order" as const, id, data });

describe("where a subject falls in a split", () => {
  it("is the same for the same automation, step and subject, and differs across steps", () => {
    const a = splitPosition("auto-1", "split", "customer:c-1");
    expect(splitPosition("auto-1", "split", "customer:c-1")).toBe(a);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThan(1);
    expect(splitPosition("auto-1", "split2", "customer:c-1")).not.toBe(a);
    expect(splitPosition("auto-2", "split", "customer:c-1")).not.toBe(a);
  });

  it("takes the customer an order names, else its email, else the order; by record, the record", () => {
    expect(splitSubject("customer", order("o-1", { customerId: "c-9" }), event)).toBe("customer:c-9");
    expect(splitSubject("customer", order("o-1", { email: "Mia@Shop.test" }), event)).toBe(
      "email:mia@shop.test",
    );
    expect(splitSubject("customer", order("o-1", {}), event)).toBe("order:o-1");
    expect(splitSubject("record", order("o-1", { customerId: "c-9" }), event)).toBe("order:o-1");
    expect(splitSubject("customer", { domain: "customer", id: "c-3", data: {} }, event)).toBe("customer:c-3");
    expect(splitSubject("record", null, { ...event, domain: "webhook", entityId: null })).toBe("event:ev-1");
  });

  it("sends 80/20 of 2,000 customers down Group A/Group B: exactly the count the hash gives", () => {
    const params = splitParams.parse({
      branches: [
        { id: "a", label: "Group A", weight: 80 },
        { id: "b", label: "Group B", weight: 20 },
      ],
    });
    let a = 0;
    for (let i = 0; i < 2000; i++)
      if (chooseBranch(params, splitPosition("auto-80-20", "split", `customer:c-${i}`))?.branch === "a")
        a += 1;
    // Deterministic (sha256), so an exact count, which is within a percentage point of 80 %.
    expect(a).toBe(EXPECTED_A);
    expect(Math.abs(a / 2000 - 0.8)).toBeLessThan(0.02);
  });
});

/** What sha256 gives these 2,000 customers: 1,609 (80.45 %). */
const EXPECTED_A = 1609;
