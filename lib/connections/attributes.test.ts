import { describe, expect, test } from "vitest";
import { MAX_ATTRIBUTES_BYTES } from "@/lib/domains/domains";
import { keepAttributes } from "./attributes";

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("keepAttributes", () => {
  test("keeps everything that fits", () => {
    const attributes = { note: "Ring twice", note_attributes: [{ name: "gift_wrap", value: "yes" }] };
    expect(keepAttributes(attributes)).toEqual({ kept: attributes, leftOut: [] });
  });

  test("leaves out the largest fields first until the rest fits, and says which", () => {
    const attributes = {
      note: "Ring twice",
      line_item_properties: "x".repeat(50_000),
      client_details: { user_agent: "y".repeat(30_000) },
      tags: "vip",
    };
    const { kept, leftOut } = keepAttributes(attributes);
    expect(leftOut).toEqual(["line_item_properties"]);
    expect(kept).toEqual({ note: "Ring twice", client_details: attributes.client_details, tags: "vip" });
    expect(bytes(kept)).toBeLessThanOrEqual(MAX_ATTRIBUTES_BYTES);
  });

  test("a single field over the limit is left out on its own", () => {
    const { kept, leftOut } = keepAttributes({ huge: "z".repeat(MAX_ATTRIBUTES_BYTES + 1), small: 1 });
    expect(leftOut).toEqual(["huge"]);
    expect(kept).toEqual({ small: 1 });
  });
});

describe("keepAttributes at scale and at the edges", () => {
  /** The first version, which serialised the whole object again after each field it left out. */
  function serialisingAgain(attributes: Record<string, unknown>) {
    const sizes = Object.entries(attributes).map(
      ([key, value]) => [key, Buffer.byteLength(JSON.stringify(value) ?? "")] as const,
    );
    const kept = { ...attributes };
    const leftOut: string[] = [];
    for (const [key] of [...sizes].sort((a, b) => b[1] - a[1])) {
      if (bytes(kept) <= MAX_ATTRIBUTES_BYTES) break;
      delete kept[key];
      leftOut.push(key);
    }
    return { kept, leftOut };
  }

  test("keeps and leaves out exactly what serialising the whole object after each field did", () => {
    // A seeded generator: the same mixed objects (sizes, ties, unicode, nesting) on every run.
    let seed = 46;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 40; round++) {
      const attributes: Record<string, unknown> = {};
      const fields = 1 + Math.floor(next() * 60);
      for (let i = 0; i < fields; i++) {
        const size = Math.floor(next() ** 3 * 40_000);
        const kind = Math.floor(next() * 4);
        attributes[`f${i}_${"ü".repeat(i % 3)}`] =
          kind === 0
            ? "x".repeat(size)
            : kind === 1
              ? { nested: ["€".repeat(size / 3)] }
              : kind === 2
                ? size
                : null;
      }
      expect(keepAttributes(attributes)).toEqual(serialisingAgain(attributes));
    }
  });

  test("60,000 fields: the largest go first until the rest fits, the others are kept in their order", () => {
    const attributes = Object.fromEntries(
      Array.from({ length: 60_000 }, (_, i) => [`key_${i}`, "v".repeat(10 + (i % 7))]),
    );
    const { kept, leftOut } = keepAttributes(attributes);
    expect(bytes(kept)).toBeLessThanOrEqual(MAX_ATTRIBUTES_BYTES);
    expect(bytes(kept)).toBeGreaterThan(MAX_ATTRIBUTES_BYTES - 40);
    expect(Object.keys(kept).length + leftOut.length).toBe(60_000);
    // Every kept value is no longer than every value left out.
    const longestKept = Math.max(...Object.values(kept).map((v) => String(v).length));
    expect(leftOut.every((key) => String(attributes[key]).length >= longestKept)).toBe(true);
    const order = Object.keys(kept).map((key) => Number(key.slice(4)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  test("a field nested too deep to serialise is left out, and the rest is kept", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const { kept, leftOut } = keepAttributes({ deep, note: "Ring twice" });
    expect(leftOut).toEqual(["deep"]);
    expect(kept).toEqual({ note: "Ring twice" });
  });

  test("the fields named in omit are neither kept nor listed, and a __proto__ field stays a field", () => {
    const attributes = JSON.parse(
      '{"id":1,"name":"#1001","__proto__":{"polluted":true},"note":"hi"}',
    ) as Record<string, unknown>;
    const { kept, leftOut } = keepAttributes(attributes, ["id", "name"]);
    expect(leftOut).toEqual([]);
    expect(Object.keys(kept)).toEqual(["__proto__", "note"]);
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
  });
});
