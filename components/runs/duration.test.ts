import { describe, expect, test } from "vitest";
import { formatDuration } from "./duration";

describe("formatDuration", () => {
  test.each([
    [null, "—"],
    [-5, "—"],
    [850, "850 ms"],
    [4_200, "4.2 s"],
    [42_000, "42 s"],
    [184_000, "3 min 4 s"],
    [120_000, "2 min"],
    [7_500_000, "2 h 5 min"],
    [3_600_123, "1 h"],
    [273_600_000, "3 d 4 h"],
  ])("%s ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
