import { describe, expect, test } from "vitest";
import { parseRunRef, shortRunId } from "./short-id";

describe("shortRunId", () => {
  test("is the random end of a month-partitioned id, not the prefix every run shares", () => {
    expect(shortRunId("7111f10e-0d8b-8a21-b3c4-5e6f3fa9c01e")).toBe("3fa9c01e");
    expect(shortRunId("7111f10e-0d8b-8a21-b3c4-5e6f11111111")).toBe("11111111");
  });

  test("reads the same for an older random id, in lower case", () => {
    expect(shortRunId("0B5E2C1A-1234-4ABC-9DEF-0123456789AB")).toBe("456789ab");
  });
});

describe("parseRunRef", () => {
  test("a full id finds that run", () => {
    expect(parseRunRef(" 7111F10E-0D8B-8A21-B3C4-5E6F3FA9C01E ")).toEqual({
      kind: "id",
      id: "7111f10e-0d8b-8a21-b3c4-5e6f3fa9c01e",
    });
  });

  test("a short id, or a few characters more or fewer of the end, is a tail", () => {
    expect(parseRunRef("3fa9c01e")).toEqual({ kind: "tail", tail: "3fa9c01e" });
    expect(parseRunRef("#3FA9")).toEqual({ kind: "tail", tail: "3fa9" });
    expect(parseRunRef("5e6f3fa9c01e")).toEqual({ kind: "tail", tail: "5e6f3fa9c01e" });
  });

  test("anything else is not a run reference", () => {
    for (const text of ["", "abc", "3fa9-c01e", "xyz12345", "5e6f3fa9c01e0", "7111f10e-0d8b", "%"]) {
      expect(parseRunRef(text)).toBeNull();
    }
  });
});
