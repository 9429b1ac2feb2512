import { describe, expect, it } from "vitest";
import {
  flattenAttributes,
  LIST_ITEMS,
  MAX_DEPTH,
  MAX_PATHS,
  SAMPLE_CHARS,
  summariseAttributePaths,
} from "./attribute-paths";

describe("flattenAttributes", () => {
  it("lists objects, lists and what they hold, with their types and samples", () => {
    const flat = flattenAttributes({
      note_attributes: [{ name: "gift", value: "Wrap it" }],
      buyer_accepts_marketing: true,
      total_weight: 1200,
      landing_site: null,
      client_details: { browser_ip: "203.0.113.7" },
    });
    expect(flat).toEqual([
      { path: "attributes.note_attributes", type: "list", sample: null },
      // A list of named values is offered by name, not by position.
      { path: "attributes.note_attributes[name=gift].value", type: "text", sample: "Wrap it" },
      { path: "attributes.buyer_accepts_marketing", type: "boolean", sample: "true" },
      { path: "attributes.total_weight", type: "number", sample: "1200" },
      { path: "attributes.landing_site", type: "empty", sample: null },
      { path: "attributes.client_details", type: "object", sample: null },
      { path: "attributes.client_details.browser_ip", type: "text", sample: "203.0.113.7" },
    ]);
  });

  it("offers named values by name wherever they sit: note attributes, any line item's properties, meta_data", () => {
    const paths = flattenAttributes({
      note_attributes: [
        { name: "delivery_window", value: "evening" },
        { name: "gift_note", value: "Happy birthday" },
        { name: "odd]name", value: "left out: a selector cannot hold it" },
      ],
      line_items: [
        { id: 1, properties: [{ name: "Engraving", value: "A.B." }] },
        { id: 2, properties: [{ name: "Engraving", value: "C" }] },
      ],
      meta_data: [{ id: 3, key: "gift_message", value: "Alles Gute!" }],
    }).map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "attributes.note_attributes[name=delivery_window].value",
        "attributes.note_attributes[name=gift_note].value",
        "attributes.line_items.*.properties[name=Engraving].value",
        "attributes.meta_data[key=gift_message].value",
      ]),
    );
    expect(paths.some((p) => p.includes("odd"))).toBe(false);
    expect(paths).not.toContain("attributes.note_attributes.1.value");
    // Two line items with the same property: one path, the summary counts the record once.
    expect(
      summariseAttributePaths([
        {
          line_items: [{ properties: [{ name: "a", value: 1 }] }, { properties: [{ name: "a", value: 2 }] }],
        },
      ]).filter((p) => p.path.includes("[name=a]")),
    ).toHaveLength(1);
  });

  it("looks into the first three items of a list only", () => {
    const paths = flattenAttributes({ codes: ["a", "b", "c", "d", "e"] }).map((f) => f.path);
    expect(LIST_ITEMS).toBe(3);
    expect(paths).toEqual([
      "attributes.codes",
      "attributes.codes.0",
      "attributes.codes.1",
      "attributes.codes.2",
    ]);
  });

  it("goes at most six levels deep", () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } };
    const paths = flattenAttributes(deep).map((f) => f.path);
    expect(MAX_DEPTH).toBe(6);
    expect(paths.at(-1)).toBe("attributes.a.b.c.d.e.f");
    expect(paths).not.toContain("attributes.a.b.c.d.e.f.g");
  });

  it("cuts a long sample and folds its whitespace", () => {
    const [field] = flattenAttributes({ note: `Please\n\nleave it ${"x".repeat(100)}` });
    expect(field!.sample!.length).toBe(SAMPLE_CHARS);
    expect(field!.sample).toMatch(/^Please leave it x+…$/);
  });

  it("leaves out keys a dot path cannot name, and never walks a prototype", () => {
    const value = JSON.parse(
      '{"with.dot": 1, "with space": 2, "__proto__": {"x": 1}, "ok-key": 3}',
    ) as unknown;
    expect(flattenAttributes(value).map((f) => f.path)).toEqual(["attributes.ok-key"]);
  });

  it("gives nothing for anything but an object", () => {
    for (const value of [null, undefined, "text", 3, ["a"]]) expect(flattenAttributes(value)).toEqual([]);
  });
});

describe("summariseAttributePaths", () => {
  it("counts the records that have each path, keeps the newest sample and notices mixed types", () => {
    const paths = summariseAttributePaths([
      { gift: "yes", weight: 10, note: null },
      { gift: "no", weight: "heavy", note: "Hi" },
      { other: 1 },
      undefined,
    ]);
    expect(paths).toEqual([
      { path: "attributes.gift", type: "text", records: 2, sample: "yes" },
      { path: "attributes.weight", type: "mixed", records: 2, sample: "10" },
      { path: "attributes.note", type: "text", records: 2, sample: "Hi" },
      { path: "attributes.other", type: "number", records: 1, sample: "1" },
    ]);
  });

  it("keeps the paths most records have when there are too many", () => {
    const rare = Object.fromEntries(Array.from({ length: MAX_PATHS + 20 }, (_, i) => [`rare_${i}`, i]));
    const paths = summariseAttributePaths([{ common: 1, ...rare }, { common: 2 }]);
    expect(paths).toHaveLength(MAX_PATHS);
    expect(paths[0]).toMatchObject({ path: "attributes.common", records: 2 });
  });
});
