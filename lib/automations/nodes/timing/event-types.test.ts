import { describe, expect, it } from "vitest";
import { eventLabel, eventTypeOptions, searchEventTypes } from "./event-types";

describe("the event types a wait can wait for", () => {
  it("names them as the merchant does, and leaves out schedules and later steps", () => {
    const types = eventTypeOptions().map((option) => option.type);
    expect(types).toEqual(expect.arrayContaining(["order.fulfilled", "order.paid", "webhook.received"]));
    expect(types).toEqual(expect.arrayContaining(["customer.created", "product.status_changed"]));
    expect(types).not.toContain("schedule.fired");
    expect(types).not.toContain("later");
    expect(eventLabel("order.fulfilled")).toBe("Order fulfilled");
    expect(eventLabel("webhook.received")).toBe("Webhook received");
    expect(eventLabel("customer.updated")).toBe("Customer updated");
  });

  it("finds them by any word of their name or type, keeping the chosen one first", () => {
    expect(searchEventTypes("fulfil", "").map((o) => o.type)).toEqual(["order.fulfilled"]);
    expect(searchEventTypes("webhook", "order.paid").map((o) => o.type)).toEqual([
      "order.paid",
      "webhook.received",
    ]);
    expect(searchEventTypes("", "customer.updated")[0]).toEqual({
      type: "customer.updated",
      label: "Customer updated",
    });
  });
});
