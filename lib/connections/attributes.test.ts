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
