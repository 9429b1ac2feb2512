import { describe, expect, it } from "vitest";
import { describeDuration, isDuration, parseDuration } from "./duration";

describe("parseDuration", () => {
  it("turns minutes, hours and days into milliseconds", () => {
    expect(parseDuration("30m")).toBe(30 * 60_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("3d")).toBe(3 * 86_400_000);
    expect(parseDuration("0m")).toBe(0);
  });

  it.each(["", "2", "h", "2 h", "2H", "1.5h", "-1d", "2w", "2hours", " 2h"])("refuses %j", (text) => {
    expect(isDuration(text)).toBe(false);
    expect(() => parseDuration(text)).toThrow(/is not a duration such as 30m, 2h or 3d/);
  });

  it("reads as words", () => {
    expect(describeDuration("1h")).toBe("1 hour");
    expect(describeDuration("30m")).toBe("30 minutes");
    expect(describeDuration("3d")).toBe("3 days");
  });
});
