import { describe, expect, test } from "vitest";
import { encodeCursor } from "@/lib/pagination/cursor";
import { decodePreciseCursor, encodePreciseCursor } from "./precise-cursor";

const id = "0b3f6a59-3c1e-4d5e-9a44-6f4d2b1c0a99";

describe("precise keyset cursors", () => {
  test("keep PostgreSQL's microseconds through the round trip", () => {
    const cursor = encodePreciseCursor("2026-11-30T09:00:00.123456Z", id);
    expect(decodePreciseCursor(cursor)).toEqual({ at: "2026-11-30T09:00:00.123456Z", id });
  });

  test("accept the millisecond cursors handed out before", () => {
    const old = encodeCursor(new Date("2026-11-30T09:00:00.123Z"), id);
    expect(decodePreciseCursor(old)).toEqual({ at: "2026-11-30T09:00:00.123Z", id });
  });

  test("refuse anything else with a sentence, never reaching SQL", () => {
    for (const bad of [
      "garbage",
      encodePreciseCursor("yesterday", id),
      encodePreciseCursor("2026-11-30T09:00:00Z", "1; drop table runs"),
      Buffer.from(JSON.stringify({ at: 1 })).toString("base64url"),
    ])
      expect(() => decodePreciseCursor(bad)).toThrow("The cursor is not one this API returned");
  });
});
