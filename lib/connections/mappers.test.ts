import { describe, expect, test } from "vitest";
import { domainSchemas, jsonBytes, MAX_ATTRIBUTES_BYTES } from "@/lib/domains/domains";
import { email, tagList } from "./mapped";
import { mapShopify } from "./shopify";
import { mapWooCommerce } from "./woocommerce";

// The full payloads are in tests/fixtures/ and go through the real endpoint in tests/connections/;
// these are the edges of the platforms' shapes.

describe("mapShopify", () => {
  test("a custom line item without a SKU is told apart by its variant, and Shopify's tags become a list", () => {
    const mapped = mapShopify("orders/create", {
      id: 1,
      name: "#1001",
      currency: "USD",
      total_price: "5.00",
      tags: " vip,  wholesale ,vip",
      line_items: [
        { id: 9, variant_id: null, product_id: null, title: "Engraving", quantity: 1, price: "5.00" },
      ],
      updated_at: "2026-11-28T10:00:00-05:00",
    });
    expect(mapped).toMatchObject({
      kind: "record",
      domain: "order",
      id: "1",
      tags: ["vip", "wholesale"],
      data: { lineItems: [{ sku: "9", title: "Engraving", price: 5 }], fulfillmentStatus: "unfulfilled" },
    });
    expect(mapped.kind === "record" && mapped.sourceUpdatedAt?.toISOString()).toBe(
      "2026-11-28T15:00:00.000Z",
    );
  });

  test("a value longer than its field keeps is cut, not refused", () => {
    const mapped = mapShopify("orders/create", {
      id: 6,
      order_number: "9".repeat(80),
      line_items: [{ sku: "S".repeat(150), vendor: "V".repeat(300), title: "Mug", quantity: 1, price: "1" }],
      shipping_address: { country_code: "DEU-LONG-CODE", zip: "1".repeat(80) },
    });
    expect(mapped).toMatchObject({
      data: {
        number: `#${"9".repeat(49)}`,
        lineItems: [{ sku: "S".repeat(100), vendor: "V".repeat(200) }],
        shippingAddress: { countryCode: "DEU-LONG-C", zip: "1".repeat(50) },
      },
    });
    expect(domainSchemas.order.safeParse(mapped.kind === "record" && mapped.data).success).toBe(true);
  });

  test("a cancelled order is cancelled whatever its payment, and a completed checkout is a converted cart", () => {
    expect(
      mapShopify("orders/cancelled", {
        id: 2,
        financial_status: "paid",
        cancelled_at: "2026-11-28T10:00:00Z",
      }),
    ).toMatchObject({ data: { status: "cancelled", financialStatus: "paid" } });
    expect(
      mapShopify("checkouts/update", {
        id: 3,
        token: "t",
        completed_at: "2026-11-28T10:00:00Z",
        total_price: "9",
      }),
    ).toMatchObject({ domain: "cart", id: "3", data: { status: "converted", total: 9 } });
  });

  test("a customer without an email and an unknown topic are refused with a reason", () => {
    expect(mapShopify("customers/create", { id: 4, phone: "+4930123" })).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("no email address"),
    });
    expect(mapShopify("shop/update", { id: 5 })).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("does not use Shopify's 'shop/update' webhooks"),
    });
  });
});

describe("mapWooCommerce", () => {
  test("its _gmt dates are UTC and its statuses read as ours", () => {
    const mapped = mapWooCommerce("order.updated", {
      id: 7,
      number: "7",
      status: "on-hold",
      total: "10.00",
      date_modified_gmt: "2026-11-28T10:00:00",
    });
    expect(mapped).toMatchObject({ data: { status: "pending", financialStatus: "pending" } });
    expect(mapped.kind === "record" && mapped.sourceUpdatedAt?.toISOString()).toBe(
      "2026-11-28T10:00:00.000Z",
    );
  });

  test("a product's stock and status, and its tags by name", () => {
    expect(
      mapWooCommerce("product.updated", {
        id: 8,
        name: "Mug",
        status: "publish",
        stock_quantity: 12,
        tags: [{ id: 1, name: "ceramics" }],
      }),
    ).toMatchObject({
      domain: "product",
      data: { title: "Mug", inventory: 12, status: "active" },
      tags: ["ceramics"],
    });
  });
});

describe("the shared readers on hostile input", () => {
  test("tags: the first 250 different ones, read no further, from a string or a list of any length", () => {
    expect(tagList(",".repeat(2_000_000))).toEqual([]);
    const many = Array.from({ length: 60_000 }, (_, i) => `t${i % 300}`);
    expect(tagList(many.join(","))).toEqual(many.slice(0, 250));
    expect(tagList(many)).toEqual(many.slice(0, 250));
    expect(tagList(` a ,${"x".repeat(101)}, a,b,`)).toEqual(["a", "b"]);
  });

  test("an email address longer than any can be is no address, without trying the pattern on it", () => {
    // The pattern backtracks quadratically: 100,000 characters of this took 7.6 s.
    expect(email(`a@${".".repeat(100_000)}@`)).toBeUndefined();
    expect(email(`${"a".repeat(240)}@example.de`)).toBe(`${"a".repeat(240)}@example.de`);
    expect(email(`${"a".repeat(250)}@example.de`)).toBeUndefined();
  });

  test("60,000 fields besides the known ones: the record keeps 64 KB of them and names the ones left out", () => {
    const payload = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, "v".repeat(20)]));
    const mapped = mapShopify("orders/create", {
      id: 9,
      name: "#9",
      currency: "EUR",
      total_price: "1",
      ...payload,
    });
    expect(mapped.kind).toBe("record");
    if (mapped.kind !== "record") return;
    const attributes = mapped.data.attributes as Record<string, unknown>;
    expect(jsonBytes(attributes)).toBeLessThanOrEqual(MAX_ATTRIBUTES_BYTES);
    expect(Object.keys(attributes).length + mapped.leftOut.length).toBe(60_000);
    expect(mapped.data).toMatchObject({ number: "#9", currency: "EUR", total: 1 });
  });
});

describe("a body is read only under a topic of its own resource (issue 47: the topic is not signed)", () => {
  test("Shopify's admin_graphql_api_id names the resource; a body without one is read as its topic says", () => {
    const order = { id: 11, email: "a@example.de", admin_graphql_api_id: "gid://shopify/Order/11" };
    expect(mapShopify("orders/cancelled", order)).toMatchObject({ kind: "record", domain: "order" });
    for (const topic of ["customers/create", "products/update", "checkouts/create", "refunds/create"])
      expect(mapShopify(topic, order), topic).toMatchObject({
        kind: "refused",
        reason: expect.stringContaining(
          `is a Shopify Order (its admin_graphql_api_id says so), which '${topic}'`,
        ),
      });
    const level = {
      inventory_item_id: 5,
      location_id: 6,
      available: 1,
      admin_graphql_api_id: "gid://shopify/InventoryLevel/6?inventory_item_id=5",
    };
    expect(mapShopify("inventory_levels/update", level)).toMatchObject({
      kind: "inventory",
      inventoryItemId: "5",
      locationId: "6",
    });
    expect(mapShopify("products/update", level)).toMatchObject({ kind: "refused" });
    // A resource Tillflow does not know (a draft order) is not judged by its name.
    const { admin_graphql_api_id: _, ...bare } = order;
    expect(mapShopify("customers/create", bare)).toMatchObject({ kind: "record", domain: "customer" });
    expect(
      mapShopify("orders/create", { ...bare, admin_graphql_api_id: "gid://shopify/DraftOrder/11" }),
    ).toMatchObject({ kind: "record", domain: "order" });
  });

  test("WooCommerce's resources are told by fields only one of them sends", () => {
    const order = { id: 12, order_key: "wc_order_x", billing: { email: "b@example.de" } };
    expect(mapWooCommerce("order.updated", order)).toMatchObject({ kind: "record", domain: "order" });
    expect(mapWooCommerce("customer.created", order)).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("is a WooCommerce order (it has order_key)"),
    });
    const customer = { id: 13, email: "c@example.de", role: "customer", username: "c" };
    expect(mapWooCommerce("customer.updated", customer)).toMatchObject({ kind: "record" });
    expect(mapWooCommerce("product.created", customer)).toMatchObject({ kind: "refused" });
    const product = { id: 14, name: "Mug", permalink: "https://shop.example.de/mug" };
    expect(mapWooCommerce("product.updated", product)).toMatchObject({ kind: "record" });
    expect(mapWooCommerce("order.created", product)).toMatchObject({ kind: "refused" });
  });
});
