import { describe, expect, test } from "vitest";
import { nextDay, startOfDayIn } from "./zoned-day";

describe("startOfDayIn", () => {
  test("a day starts at the zone's midnight", () => {
    expect(startOfDayIn("2026-11-30", "UTC")).toBe("2026-11-30T00:00:00.000Z");
    expect(startOfDayIn("2026-11-30", "Europe/Paris")).toBe("2026-11-29T23:00:00.000Z");
    expect(startOfDayIn("2026-07-01", "Europe/Paris")).toBe("2026-06-30T22:00:00.000Z");
    expect(startOfDayIn("2026-11-30", "America/New_York")).toBe("2026-11-30T05:00:00.000Z");
  });

  test("the day of a DST change starts at the offset in force at midnight", () => {
    // Europe/Paris moves to summer time at 02:00 on 2026-03-29: midnight is still +01:00.
    expect(startOfDayIn("2026-03-29", "Europe/Paris")).toBe("2026-03-28T23:00:00.000Z");
  });

  test("anything but a date is refused", () => {
    expect(startOfDayIn("yesterday", "UTC")).toBeNull();
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
  });
});
