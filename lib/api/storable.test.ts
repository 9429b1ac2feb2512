import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { assertStorableJson, findUnstorable } from "./storable";

const refusal = (body: unknown) => {
  const text = JSON.stringify(body);
  try {
    assertStorableJson(text, JSON.parse(text));
    return null;
  } catch (error) {
    return error instanceof AppError ? { status: error.status, message: error.message } : error;
  }
};

describe("text PostgreSQL cannot store", () => {
  it("finds a NUL or a lone surrogate in any string or key, naming its path", () => {
    expect(findUnstorable({ nodes: [{ params: { body: "a\u0000b" } }] })).toEqual({
      path: "nodes.0.params.body",
      text: "a\u0000b",
    });
    expect(findUnstorable({ tags: ["ok", "\ud83d"] })?.path).toBe("tags.1");
    expect(findUnstorable({ "\udc00": 1 })?.path).toBe("\udc00");
    expect(findUnstorable("\u0000")).toEqual({ path: "", text: "\u0000" });
  });

  it("lets whole emoji, accents and everything else through", () => {
    expect(findUnstorable({ a: "😀 é \u202e \n", b: [1, null, true, { c: "\ud83d\ude00" }] })).toBeNull();
    expect(refusal({ name: "😀" })).toBeNull();
  });

  it("refuses a body holding one with a 400 that names the field", () => {
    expect(refusal({ payload: { note: "x\u0000" } })).toEqual({
      status: 400,
      message:
        "The field 'payload.note' contains a NUL character (\\u0000), which cannot be stored. Remove it and send the request again.",
    });
    expect(refusal(["\ud800"])).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The field '0' contains half of a surrogate pair/),
    });
  });
});
