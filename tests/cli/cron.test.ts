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

test("cron next takes the DST rule: --dst-gap and --dst-repeat (issue 53)", async () => {
  const paris = ["30 2 * * *", "--tz", "Europe/Paris", "--count", "2"];
  const spring = ["--from", "2026-03-28T12:00:00Z"];
  // Today's rule by default: the gap's end, 03:00 CEST.
  expect(await tillflow("cron", "next", ...paris, ...spring)).toEqual([
    "2026-03-29T01:00:00.000Z",
    "2026-03-30T00:30:00.000Z",
  ]);
  expect(await tillflow("cron", "next", ...paris, ...spring, "--dst-gap", "shift")).toEqual([
    "2026-03-29T01:30:00.000Z",
    "2026-03-30T00:30:00.000Z",
  ]);
  expect(await tillflow("cron", "next", ...paris, ...spring, "--dst-gap", "skip")).toEqual([
    "2026-03-30T00:30:00.000Z",
    "2026-03-31T00:30:00.000Z",
  ]);
  expect(
    await tillflow("cron", "next", ...paris, "--from", "2026-10-24T12:00:00Z", "--dst-repeat", "twice"),
  ).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"]);
  await expect(tillflow("cron", "next", ...paris, "--dst-gap", "later")).rejects.toThrow(
    "--dst-gap must be gap_end, shift or skip, not 'later'.",
  );
  await expect(tillflow("cron", "next", ...paris, "--dst-repeat", "thrice")).rejects.toThrow(
    "--dst-repeat must be once or twice, not 'thrice'.",
  );
});
