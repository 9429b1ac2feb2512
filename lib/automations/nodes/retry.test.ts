import { describe, expect, test } from "vitest";
import { backoffMs, DEFAULT_RETRY, describeRetry, retryParams } from "./retry";

describe("retry schedule", () => {
  test("exponential doubles from the first wait, fixed does not, an hour at most", () => {
    expect([1, 2, 3].map((a) => backoffMs(DEFAULT_RETRY, a))).toEqual([30_000, 60_000, 120_000]);
    expect(backoffMs({ attempts: 5, backoff: "fixed", initialSeconds: 10 }, 4)).toBe(10_000);
    expect(backoffMs({ attempts: 10, backoff: "exponential", initialSeconds: 3600 }, 3)).toBe(3_600_000);
  });
  test("a Retry-After wins within the cap; jitter adds at most 10 %", () => {
    expect(backoffMs(DEFAULT_RETRY, 1, 2_000)).toBe(2_000);
    expect(backoffMs(DEFAULT_RETRY, 1, 7_200_000)).toBe(3_600_000);
    expect(backoffMs(DEFAULT_RETRY, 1, undefined, 1)).toBe(33_000);
  });
  test("says the schedule in words", () => {
    expect(describeRetry({ attempts: 4, backoff: "exponential", initialSeconds: 30 })).toBe(
      "On failure: retry 3 times, waiting 30 s, then 1 min, 2 min.",
    );
    expect(describeRetry({ ...DEFAULT_RETRY, attempts: 1 })).toBe("On failure: no retries.");
  });
  test("a setting left out takes SPEC's default, so { attempts: 1 } alone turns retries off", () => {
    expect(retryParams.parse({ attempts: 1 })).toEqual({
      attempts: 1,
      backoff: "exponential",
      initialSeconds: 30,
    });
    expect(retryParams.parse({ backoff: "fixed" })).toEqual({
      attempts: 3,
      backoff: "fixed",
      initialSeconds: 30,
    });
    expect(retryParams.safeParse({ attempts: 11 }).success).toBe(false);
    expect(retryParams.safeParse({ attempts: 2, pause: 5 }).success).toBe(false);
  });
});
