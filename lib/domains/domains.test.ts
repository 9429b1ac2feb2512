import { describe, expect, it } from "vitest";
import { DOMAINS, domainSchemas, jsonBytes, MAX_ATTRIBUTES_BYTES } from "./domains";

const order = { number: "#1001", status: "paid", total: 65, currency: "EUR" };

describe("open records", () => {
  it("keeps an order's new known fields and its attributes as they came", () => {
    const full = {
      ...order,
      lineItems: [
        {
          sku: "MUG",
          title: "Mug",
          quantity: 1,
          price: 65,
          vendor: "Potter & Co",
          productType: "Kitchen",
          productId: "prod-1",
          variantTitle: "Blue",
        },
      ],
      shippingAddress: { name: "Ada", city: "Berlin", country: "Germany", countryCode: "DE", zip: "10115" },
      discountCodes: ["WELCOME10"],
      financialStatus: "partially_refunded",
      fulfillmentStatus: "partial",
      sourceName: "web",
      attributes: { note_attributes: [{ name: "gift", value: "yes" }], landing_site: "/" },
    };
    expect(domainSchemas.order.parse(full)).toEqual(full);
  });

  it("leaves a record without them as it was: nothing is added", () => {
    expect(domainSchemas.order.parse(order)).toEqual({ ...order, lineItems: [] });
    const customer = { email: "ada@example.com" };
    expect(Object.keys(domainSchemas.customer.parse(customer)).sort()).toEqual(
      ["acceptsMarketing", "email", "name", "ordersCount", "totalSpent"].sort(),
    );
  });

  it("still refuses a misspelt known field, and a shipping address with a field it does not have", () => {
    expect(domainSchemas.order.safeParse({ ...order, shippingAdress: {} }).success).toBe(false);
    expect(domainSchemas.order.safeParse({ ...order, shippingAddress: { street: "x" } }).success).toBe(false);
    expect(domainSchemas.order.safeParse({ ...order, financialStatus: "unpaid" }).success).toBe(false);
    expect(
      domainSchemas.order.safeParse({ ...order, shippingAddress: { countryCode: "GERMANY-LONG" } }).success,
    ).toBe(false);
  });

  it("gives a customer a phone, a city and a country", () => {
    const customer = { email: "ada@example.com", phone: "+49 30 1", city: "Berlin", country: "Germany" };
    expect(domainSchemas.customer.parse(customer)).toMatchObject(customer);
  });

  it("takes attributes on every domain, up to 64 KB of JSON, and says how big a larger one is", () => {
    expect(MAX_ATTRIBUTES_BYTES).toBe(65_536);
    for (const domain of DOMAINS) {
      const shape = domainSchemas[domain].shape as Record<string, unknown>;
      expect(shape, domain).toHaveProperty("attributes");
    }
    const fits = { blob: "x".repeat(MAX_ATTRIBUTES_BYTES - 20) };
    expect(jsonBytes(fits)).toBeLessThanOrEqual(MAX_ATTRIBUTES_BYTES);
    expect(domainSchemas.order.safeParse({ ...order, attributes: fits }).success).toBe(true);
    const big = { blob: "x".repeat(70 * 1024 - 20) };
    const result = domainSchemas.order.safeParse({ ...order, attributes: big });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ["attributes"],
      message: "must be at most 64 KB of JSON (this is 70 KB)",
    });
  });

  it("measures attributes in UTF-8 bytes", () => {
    expect(jsonBytes({ a: "é" })).toBe(10);
    expect(jsonBytes("€")).toBe(5);
  });

  it("refuses attributes that are not an object", () => {
    expect(domainSchemas.order.safeParse({ ...order, attributes: ["a"] }).success).toBe(false);
    expect(domainSchemas.order.safeParse({ ...order, attributes: "a" }).success).toBe(false);
  });
});
