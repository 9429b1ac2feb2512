import { describe, expect, test } from "vitest";
import { nestsDeeperThan } from "./depth";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("nestsDeeperThan", () => {
  test("counts objects and lists, and nothing inside strings", () => {
    expect(nestsDeeperThan(bytes('{"a":[{"b":1}]}'), 3)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":[{"b":1}]}'), 2)).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":"[[[[{{{{","b":[1]}'), 2)).toBe(false);
    // An escaped quote does not end the string: the brackets after it are still text.
    expect(nestsDeeperThan(bytes('{"a":"\\"[[[[","b":1}'), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":"\\\\","b":[[1]]}'), 2)).toBe(true);
    expect(nestsDeeperThan(bytes('["ü€😀",{"x":["]"]}]'), 3)).toBe(false);
    expect(nestsDeeperThan(bytes("42"), 0)).toBe(false);
  });

  test("siblings do not add up: depth is how far in, not how many", () => {
    expect(nestsDeeperThan(bytes(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1] })))), 3)).toBe(
      false,
    );
  });

  test("a body of a million levels is read without recursion", () => {
    const deep = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    expect(nestsDeeperThan(bytes(deep), 100)).toBe(true);
    expect(nestsDeeperThan(bytes(deep), 1_000_000)).toBe(false);
  });
});
