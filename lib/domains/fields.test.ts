import { describe, expect, it } from "vitest";
import { DOMAINS } from "./domains";
import { domainFields, fieldAt, isKnownFieldPath, readPath, splitPath } from "./fields";

describe("domainFields", () => {
  it("reads an order's fields off its zod schema, with enum options and item fields", () => {
    const fields = domainFields("order");
    const byPath = new Map(fields.map((f) => [f.path, f]));
    expect(byPath.get("id")).toEqual({ path: "id", type: "string" });
    expect(byPath.get("tags")).toEqual({ path: "tags", type: "array" });
    expect(byPath.get("total")).toEqual({ path: "total", type: "number" });
    expect(byPath.get("createdAt")).toEqual({ path: "createdAt", type: "date" });
    expect(byPath.get("status")).toEqual({
      path: "status",
      type: "enum",
      options: ["pending", "paid", "fulfilled", "cancelled", "refunded"],
    });
    expect(byPath.get("lineItems")?.type).toBe("array");
    expect(byPath.get("lineItems.0.sku")).toEqual({ path: "lineItems.0.sku", type: "string" });
    expect(byPath.get("lineItems.0.price")).toEqual({ path: "lineItems.0.price", type: "number" });
    expect(byPath.has("tags.0")).toBe(false);
  });

  it("gives every domain an id and tags", () => {
    for (const domain of DOMAINS) {
      const paths = domainFields(domain).map((f) => f.path);
      expect(paths, domain).toContain("id");
      expect(paths, domain).toContain("tags");
    }
  });

  it("unwraps optional and defaulted fields", () => {
    const customer = new Map(domainFields("customer").map((f) => [f.path, f.type]));
    expect(customer.get("acceptsMarketing")).toBe("boolean");
    expect(customer.get("ordersCount")).toBe("number");
    expect(customer.get("email")).toBe("string");
    expect(new Map(domainFields("invoice").map((f) => [f.path, f.type])).get("dueAt")).toBe("date");
  });

  it("returns copies, so a caller cannot change the cached list", () => {
    const first = domainFields("product");
    first[0]!.path = "changed";
    expect(domainFields("product")[0]!.path).not.toBe("changed");
  });
});

describe("open records", () => {
  it("lists the common commerce fields of an order and a customer", () => {
    const order = new Map(domainFields("order").map((f) => [f.path, f]));
    expect(order.get("shippingAddress")?.type).toBe("object");
    for (const part of ["name", "city", "province", "country", "countryCode", "zip"])
      expect(order.get(`shippingAddress.${part}`), part).toEqual({
        path: `shippingAddress.${part}`,
        type: "string",
      });
    expect(order.get("discountCodes")).toEqual({ path: "discountCodes", type: "array" });
    expect(order.get("financialStatus")?.options).toEqual([
      "pending",
      "authorized",
      "partially_paid",
      "paid",
      "partially_refunded",
      "refunded",
      "voided",
    ]);
    expect(order.get("fulfillmentStatus")?.options).toEqual([
      "unfulfilled",
      "partial",
      "fulfilled",
      "restocked",
    ]);
    expect(order.get("sourceName")?.type).toBe("string");
    for (const part of ["vendor", "productType", "productId", "variantTitle"])
      expect(order.get(`lineItems.0.${part}`)?.type, part).toBe("string");
    const customer = new Map(domainFields("customer").map((f) => [f.path, f.type]));
    expect([customer.get("phone"), customer.get("city"), customer.get("country")]).toEqual([
      "string",
      "string",
      "string",
    ]);
  });

  it("gives every domain an open attributes object", () => {
    for (const domain of DOMAINS)
      expect(fieldAt(domain, "attributes"), domain).toEqual({
        path: "attributes",
        type: "object",
        open: true,
      });
  });

  it.each([
    "attributes.gift_note",
    "attributes.note_attributes.0.value",
    "attributes.a.b.c.d.e.f.g",
    "attributes.x-tier",
  ])("accepts %s on an order, of any type", (path) => {
    expect(fieldAt("order", path)).toEqual({ path, type: "any" });
    expect(isKnownFieldPath("order", path)).toBe(true);
  });

  it.each([
    "attributes.",
    "attributes..x",
    "attributes.__proto__",
    "attributes.a.constructor",
    "shippingAdress.country",
    "shippingAddress.street",
    "shippingAddress.countryCode.0",
  ])("still rejects %s", (path) => expect(isKnownFieldPath("order", path)).toBe(false));

  it("reads a nested attribute, through array indexes", () => {
    const order = { attributes: { note_attributes: [{ name: "gift", value: "wrap it" }] } };
    expect(readPath(order, "attributes.note_attributes.0.value")).toBe("wrap it");
    expect(readPath(order, "attributes.note_attributes.1.value")).toBeUndefined();
  });
});

describe("isKnownFieldPath", () => {
  it.each(["total", "tags", "tags.0", "lineItems", "lineItems.3.price", "lineItems.0.sku", "id"])(
    "accepts %s on an order",
    (path) => expect(isKnownFieldPath("order", path)).toBe(true),
  );

  it.each([
    "nope",
    // Notes are not part of a run's entity, so conditions cannot read them.
    "notes.0.body",
    "",
    "lineItems.sku",
    "lineItems.x.price",
    "tags.0.name",
    "total.0",
    "lineItems.01.sku",
    "inventory",
  ])("rejects %s on an order", (path) => expect(isKnownFieldPath("order", path)).toBe(false));

  it("knows each domain's own fields", () => {
    expect(isKnownFieldPath("product", "inventory")).toBe(true);
    expect(isKnownFieldPath("cart", "items.2.sku")).toBe(true);
    expect(isKnownFieldPath("cart", "lineItems.0.sku")).toBe(false);
  });

  it("describes the field at a path with any index", () => {
    expect(fieldAt("order", "lineItems.7.quantity")).toEqual({
      path: "lineItems.7.quantity",
      type: "number",
    });
    expect(fieldAt("shipment", "status")?.options).toEqual(["in_transit", "delivered", "failed"]);
  });
});

describe("readPath", () => {
  const order = { total: 120, lineItems: [{ sku: "A-1", price: 10 }], customer: { name: "Ada" }, zero: 0 };

  it("reads nested objects and array indexes", () => {
    expect(readPath(order, "total")).toBe(120);
    expect(readPath(order, "lineItems.0.sku")).toBe("A-1");
    expect(readPath(order, "customer.name")).toBe("Ada");
    expect(readPath(order, "zero")).toBe(0);
    expect(readPath(order, "")).toBe(order);
  });

  it("returns undefined for anything missing and never throws", () => {
    expect(readPath(order, "nope")).toBeUndefined();
    expect(readPath(order, "lineItems.5.sku")).toBeUndefined();
    expect(readPath(order, "lineItems.first")).toBeUndefined();
    expect(readPath(order, "total.value")).toBeUndefined();
    expect(readPath(null, "a")).toBeUndefined();
    expect(readPath(undefined, "a.b")).toBeUndefined();
    expect(readPath("text", "length")).toBeUndefined();
  });

  it("never reaches a prototype", () => {
    expect(readPath(order, "__proto__")).toBeUndefined();
    expect(readPath(order, "constructor")).toBeUndefined();
    expect(readPath(order, "constructor.prototype")).toBeUndefined();
    expect(readPath(order, "toString")).toBeUndefined();
    expect(readPath(order, "lineItems.constructor")).toBeUndefined();
    expect(readPath({ a: { prototype: 1 } }, "a.prototype")).toBeUndefined();
    // An own `__proto__` key (as JSON.parse makes one) is still refused.
    expect(readPath(JSON.parse('{"__proto__": {"x": 1}}'), "__proto__.x")).toBeUndefined();
  });
});

describe("paths by name and by any item (issue 49)", () => {
  const order = {
    lineItems: [
      { sku: "MUG", quantity: 1 },
      { sku: "CAP", quantity: 2 },
    ],
    attributes: {
      note_attributes: [
        { name: "delivery_window", value: "evening" },
        { name: "gift note.v2", value: "Happy birthday" },
      ],
      line_items: [{ properties: [{ name: "a", value: 1 }] }, { properties: [{ name: "a", value: 2 }] }],
    },
  };

  it("reads the first item whose field is the value, wherever it is", () => {
    expect(readPath(order, "attributes.note_attributes[name=gift note.v2].value")).toBe("Happy birthday");
    expect(readPath(order, "attributes.note_attributes[name=missing].value")).toBeUndefined();
    expect(readPath(order, "lineItems[sku=CAP].quantity")).toBe(2);
    expect(readPath(order, "lineItems[__proto__=x]")).toBeUndefined();
  });

  it("reads every item's value with *", () => {
    expect(readPath(order, "lineItems.*.sku")).toEqual(["MUG", "CAP"]);
    expect(readPath(order, "attributes.line_items.*.properties[name=a].value")).toEqual([1, 2]);
    expect(readPath(order, "attributes.line_items.*.properties.*.value")).toEqual([1, 2]);
    expect(readPath(order, "total.*")).toBeUndefined();
  });

  it("knows these paths as fields of the record", () => {
    expect(fieldAt("order", "lineItems.*.sku")).toEqual({ path: "lineItems.*.sku", type: "string" });
    expect(fieldAt("order", "lineItems[sku=MUG].quantity")?.type).toBe("number");
    expect(fieldAt("order", "lineItems[nope=MUG].quantity")).toBeUndefined();
    expect(fieldAt("order", "attributes.note_attributes[name=gift].value")?.type).toBe("any");
    expect(fieldAt("order", "attributes.note_attributes[constructor=x].value")).toBeUndefined();
    expect(splitPath("a.b[name=x.y].c")).toEqual(["a", "b[name=x.y]", "c"]);
  });

  it("reads a list of 100,000 items by name in linear time", () => {
    const notes = Array.from({ length: 100_000 }, (_, i) => ({ name: `n${i}`, value: i }));
    const big = { attributes: { note_attributes: notes } };
    expect(readPath(big, "attributes.note_attributes[name=n99999].value")).toBe(99_999);
    expect((readPath(big, "attributes.note_attributes.*.value") as unknown[]).length).toBe(100_000);
  });
});
