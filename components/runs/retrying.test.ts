import { describe, expect, test } from "vitest";
import { clockTime, retryingText } from "./retrying";

const now = Date.UTC(2026, 10, 30, 13, 4, 0);
const due = new Date(Date.UTC(2026, 10, 30, 14, 5, 0));

describe("retryingText", () => {
  test("names the next attempt and its time in the viewer's zone", () => {
    expect(retryingText(due, now, { attempt: 2, of: 3 }, "Europe/Paris")).toBe(
      "Retrying — attempt 2 of 3 at 15:05",
    );
    expect(retryingText(due, now, { attempt: 3, of: 10 }, "America/New_York")).toBe(
      "Retrying — attempt 3 of 10 at 09:05",
    );
  });

  test("says UTC while the viewer's zone is not known yet", () => {
    expect(retryingText(due, now, { attempt: 2, of: 3 }, "UTC")).toBe(
      "Retrying — attempt 2 of 3 at 14:05 UTC",
    );
  });

  test("reads 'now' when due within a minute or overdue", () => {
    expect(retryingText(due, due.getTime() - 30_000, { attempt: 2, of: 3 }, "UTC")).toBe(
      "Retrying now — attempt 2 of 3",
    );
    expect(retryingText(due, due.getTime() + 600_000, null, "UTC")).toBe("Retrying now");
  });

  test("without attempt numbers still says when", () => {
    expect(retryingText(due, now, null, "Europe/Paris")).toBe("Retrying at 15:05");
  });

  test("the clock is 24-hour, midnight included", () => {
    expect(clockTime(new Date(Date.UTC(2026, 10, 30, 0, 7)), "UTC")).toBe("00:07");
  });
});
