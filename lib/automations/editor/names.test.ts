import { describe, expect, test } from "vitest";
import { needsName, UNTITLED_NAME } from "./names";

describe("needsName", () => {
  test("an empty or placeholder name asks for one", () => {
    expect(needsName("")).toBe(true);
    expect(needsName("   ")).toBe(true);
    expect(needsName(UNTITLED_NAME)).toBe(true);
    expect(needsName(" untitled Automation ")).toBe(true);
  });
  test("a real name does not", () => {
    expect(needsName("Tag VIP customers")).toBe(false);
    expect(needsName("Untitled automation 2")).toBe(false);
  });
});
