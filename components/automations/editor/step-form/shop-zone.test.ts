import { describe, expect, it } from "vitest";
import { registry } from "@/lib/automations/nodes/registry";
import { withShopTimeZone } from "./shop-zone";

function fresh(type: string): Record<string, unknown> {
  return registry.get(type)?.defaultParams() as Record<string, unknown>;
}

function zoned(type: string, shopTimeZone: string): Record<string, unknown> {
  return withShopTimeZone(registry.get(type)!, fresh(type), shopTimeZone);
}

describe("a new step's zone is the shop's", () => {
  it("for a schedule and a Wait until, whatever the browser's zone", () => {
    expect(zoned("auto.trigger.schedule", "Asia/Tokyo")).toEqual({
      cron: "0 9 * * *",
      timezone: "Asia/Tokyo",
    });
    expect(zoned("auto.control.wait_until", "Asia/Tokyo")).toEqual({
      time: "09:00",
      timezone: "Asia/Tokyo",
      weekdays: [1, 2, 3, 4, 5],
    });
  });

  it("leaves other steps alone", () => {
    const wait = fresh("auto.control.wait");
    expect(withShopTimeZone(registry.get("auto.control.wait")!, wait, "Asia/Tokyo")).toBe(wait);
  });
});
