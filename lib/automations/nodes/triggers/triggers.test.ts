import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  later,
  orderStatusChanged,
  productLowStock,
  schedule,
  TRIGGER_DEFINITIONS,
  webhook,
} from "./triggers";

function messages(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("simple triggers", () => {
  it("are built from the table with no settings", () => {
    const paid = TRIGGER_DEFINITIONS["auto.trigger.order_paid"];
    expect(paid).toMatchObject({ category: "trigger", entityDomain: "order", event: "order.paid" });
    expect(paid.summarise({})).toBe("When an order is paid");
    expect(paid.params.safeParse({}).success).toBe(true);
    expect(TRIGGER_DEFINITIONS["auto.trigger.invoice_overdue"].entityDomain).toBe("invoice");
  });
});

describe("order_status_changed", () => {
  it("reads as a sentence", () => {
    expect(orderStatusChanged.summarise({ from: "paid", to: "fulfilled" })).toBe(
      "Order status changes from paid to fulfilled",
    );
    expect(orderStatusChanged.summarise({})).toBe("Order status changes");
    expect(orderStatusChanged.summarise({ to: "cancelled" })).toBe("Order status changes to cancelled");
  });

  it("accepts order statuses only, and refuses a change to the same status", () => {
    expect(messages(orderStatusChanged.params, { to: "shipped" })).toEqual([
      "to: must be one of pending, paid, fulfilled, cancelled, refunded",
    ]);
    expect(messages(orderStatusChanged.params, { from: "paid", to: "paid" })).toEqual([
      "to: is the same as from, so this would never start",
    ]);
  });
});

describe("product_low_stock", () => {
  it("defaults the threshold to 5 and wants a whole number at least 0", () => {
    expect(productLowStock.params.parse({})).toEqual({ threshold: 5 });
    expect(messages(productLowStock.params, { threshold: -1 })).toEqual(["threshold: must be at least 0"]);
    expect(messages(productLowStock.params, { threshold: 1.5 })).toEqual([
      "threshold: must be a whole number",
    ]);
    expect(productLowStock.summarise({ threshold: 3 })).toBe("Product stock drops to 3 or below");
  });
});

describe("webhook", () => {
  it("generates a fresh url-safe token of at least 16 characters", () => {
    const a = webhook.defaultParams().token;
    const b = webhook.defaultParams().token;
    expect(a).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(a).not.toBe(b);
    expect(webhook.params.safeParse(webhook.defaultParams()).success).toBe(true);
  });

  it("refuses a short token", () => {
    expect(messages(webhook.params, { token: "short" })).toEqual(["token: must be at least 16 characters"]);
    expect(messages(webhook.params, {})).toEqual(["token: is required"]);
  });
});

describe("schedule", () => {
  const ok = { cron: "0 9 * * 1", timezone: "Europe/Paris" };

  it("accepts five cron fields and an IANA time zone, UTC included", () => {
    expect(schedule.params.safeParse(ok).success).toBe(true);
    expect(schedule.params.safeParse({ ...ok, timezone: "UTC" }).success).toBe(true);
    expect(schedule.params.safeParse(schedule.defaultParams()).success).toBe(true);
  });

  it("refuses a cron without five fields and an unknown zone", () => {
    expect(messages(schedule.params, { ...ok, cron: "0 9 * *" })).toEqual([
      "cron: must have five fields (minute hour day month weekday), such as 0 9 * * 1",
    ]);
    expect(messages(schedule.params, { ...ok, cron: "" })).toHaveLength(1);
    expect(messages(schedule.params, { ...ok, timezone: "Mars/Olympus" })).toEqual([
      "timezone: must be a time zone such as Europe/Paris or UTC",
    ]);
  });

  it("checks the audience filter", () => {
    const audience = {
      tagsInclude: ["vip"],
      tagsExclude: ["test"],
      acceptsMarketing: true,
      minTotalSpent: 100,
      minOrdersCount: 2,
      createdWithinDays: 30,
    };
    expect(schedule.params.safeParse({ ...ok, audience }).success).toBe(true);
    expect(messages(schedule.params, { ...ok, audience: { minOrdersCount: 1.5, shoeSize: 9 } })).toEqual([
      "audience.minOrdersCount: must be a whole number",
      "audience: 'shoeSize' is not a setting of this step",
    ]);
    expect(schedule.summarise({ ...ok, audience })).toBe(
      "Every Monday at 09:00, Paris time, once for each matching customer",
    );
  });
});

describe("later", () => {
  it("needs a step name", () => {
    expect(messages(later.params, { step: "  " })).toEqual(["step: cannot be empty"]);
    expect(later.summarise({ step: "follow-up" })).toBe("When the later step 'follow-up' comes due");
  });
});
