import { describe, expect, test } from "vitest";
import { formatUntil } from "./until";

const now = Date.UTC(2026, 10, 30, 9, 0, 0);
const at = (ms: number) => new Date(now + ms);

describe("formatUntil", () => {
  test("rounds to the nearest unit so a fresh 2-hour wait reads 2 hours", () => {
    expect(formatUntil(at(2 * 3_600_000 - 5_000), now)).toBe("in 2 hours");
    expect(formatUntil(at(30_000), now)).toBe("in 1 minute");
    expect(formatUntil(at(45 * 60_000), now)).toBe("in 45 minutes");
    expect(formatUntil(at(100 * 60_000), now)).toBe("in 2 hours");
    expect(formatUntil(at(30 * 3_600_000), now)).toBe("in 30 hours");
    expect(formatUntil(at(3 * 86_400_000 + 60_000), now)).toBe("in 3 days");
    // A fresh 2-day wait seen seconds later reads in days, not "in 48 hours".
    expect(formatUntil(at(2 * 86_400_000 - 5_000), now)).toBe("in 2 days");
  });
});
