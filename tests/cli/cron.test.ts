import { afterEach, expect, test, vi } from "vitest";
import { AppError } from "@/lib/errors";
import { tillflow } from "@/tests/helpers/cli";

afterEach(() => vi.restoreAllMocks());

test("cron next prints ISO instants, one a line, across New York's spring-forward", async () => {
  expect(
    await tillflow(
      "cron",
      "next",
      "30 2 * * *",
      "--tz",
      "America/New_York",
      "--from",
      "2026-03-07T12:00:00Z",
      "--count",
      "3",
    ),
  ).toEqual(["2026-03-08T07:00:00.000Z", "2026-03-09T06:30:00.000Z", "2026-03-10T06:30:00.000Z"]);
  // Five by default, after now.
  const lines = await tillflow("cron", "next", "*/15 * * * *", "--tz", "UTC");
  expect(lines).toHaveLength(5);
  expect(new Date(lines[0]!).getTime()).toBeGreaterThan(Date.now() - 1000);
});

test("cron next refuses a bad expression, zone, start or count in a sentence", async () => {
  await expect(tillflow("cron", "next", "0 25 * * *", "--tz", "UTC")).rejects.toThrow(
    new AppError(400, "bad_request", "'0 25 * * *': hour must be 0–23, or a list, range or */step of them."),
  );
  await expect(tillflow("cron", "next", "0 9 * * *", "--tz", "Mars/Base")).rejects.toThrow(
    "'Mars/Base' is not a time zone; use one such as Europe/Paris or UTC.",
  );
  await expect(tillflow("cron", "next", "0 9 * * *", "--tz", "UTC", "--from", "yesterday")).rejects.toThrow(
    /is not an ISO date-time/,
  );
  await expect(tillflow("cron", "next", "0 9 * * *", "--tz", "UTC", "--count", "0")).rejects.toThrow(
    /--count must be a whole number from 1 to 1000/,
  );
});
