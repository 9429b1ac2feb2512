import { describe, expect, it } from "vitest";
import { requestIdOf } from "./request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("requestIdOf", () => {
  it("keeps a sane incoming id", () => {
    expect(requestIdOf("abc-123_x.y:z")).toBe("abc-123_x.y:z");
    expect(requestIdOf("0f8e1c1e-8f0b-4c5e-9d55-2a3c4b5d6e7f")).toBe("0f8e1c1e-8f0b-4c5e-9d55-2a3c4b5d6e7f");
  });

  it("replaces a missing, empty, long or odd one with a new UUID", () => {
    for (const bad of [null, undefined, "", "a b", 'x"y', "x".repeat(129), "id\nnext", "ünï"])
      expect(requestIdOf(bad)).toMatch(UUID);
  });
});
