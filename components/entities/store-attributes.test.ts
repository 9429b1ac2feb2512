import { describe, expect, it } from "vitest";
import { shownAttributes } from "./store-attributes";

describe("shownAttributes", () => {
  it("shows a store's values as readable text, pairs as lines, and only deep values as JSON", () => {
    const shown = shownAttributes(
      {
        note_attributes: [{ name: "gift_message", value: "Happy birthday" }],
        buyer_accepts_marketing: false,
        total_weight: 1200,
        landing_site: "",
        processed_at: "2026-11-30T09:05:00Z",
        codes: ["A", "B"],
        client_details: { browser_ip: "203.0.113.7", accept_language: null },
        deep: { a: { b: 1 } },
        nothing: [],
      },
      "UTC",
    );
    expect(shown).toEqual([
      {
        key: "note_attributes",
        label: "Note attributes",
        kind: "pairs",
        pairs: [{ name: "gift_message", value: "Happy birthday" }],
      },
      { key: "buyer_accepts_marketing", label: "Buyer accepts marketing", kind: "text", text: "No" },
      { key: "total_weight", label: "Total weight", kind: "text", text: "1200" },
      { key: "landing_site", label: "Landing site", kind: "text", text: "—" },
      { key: "processed_at", label: "Processed at", kind: "text", text: "Nov 30, 2026, 9:05 AM UTC" },
      { key: "codes", label: "Codes", kind: "text", text: "A, B" },
      {
        key: "client_details",
        label: "Client details",
        kind: "pairs",
        pairs: [
          { name: "Browser ip", value: "203.0.113.7" },
          { name: "Accept language", value: "—" },
        ],
      },
      { key: "deep", label: "Deep", kind: "json", json: '{\n  "a": {\n    "b": 1\n  }\n}' },
      { key: "nothing", label: "Nothing", kind: "text", text: "None" },
    ]);
  });

  it("writes a time in the shop's time zone", () => {
    const [time] = shownAttributes({ at: "2026-11-30T09:05:00Z" }, "Europe/Berlin");
    expect(time).toMatchObject({ text: "Nov 30, 2026, 10:05 AM GMT+1" });
  });
});
