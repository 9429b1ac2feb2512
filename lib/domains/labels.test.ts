import { describe, expect, it } from "vitest";
import { DOMAIN_LABELS, DOMAINS } from "./domains";
import { domainFields } from "./fields";
import {
  entityLabel,
  entityTitle,
  FINANCIAL_STATUS_LABELS,
  FULFILLMENT_STATUS_LABELS,
  fieldLabel,
  inSentence,
  salesChannelLabel,
  statusWords,
} from "./labels";

describe("fieldLabel", () => {
  it.each([
    ["customerId", "Customer"],
    ["createdAt", "Created"],
    ["updatedAt", "Updated"],
    ["dueAt", "Due"],
    ["total", "Total"],
    ["id", "ID"],
    ["lineItems.0.sku", "First line item › SKU"],
    ["lineItems.1.price", "Second line item › Price"],
    ["lineItems.12.title", "Line item 13 › Title"],
    ["items.0.quantity", "First item › Quantity"],
    ["tags.2", "Third tag"],
    ["customer.name", "Customer › Name"],
    ["acceptsMarketing", "Accepts marketing"],
    ["gift_note", "Gift note"],
    ["ordersCount", "Orders"],
    ["shippingAddress.countryCode", "Shipping country code"],
    ["shippingAddress.city", "Shipping city"],
    ["shippingAddress", "Shipping address"],
    ["discountCodes", "Discount codes"],
    ["financialStatus", "Payment status"],
    ["fulfillmentStatus", "Fulfillment status"],
    ["sourceName", "Sales channel"],
    ["lineItems.0.vendor", "First line item › Vendor"],
    ["attributes", "From the store"],
    ["attributes.note_attributes.0.value", "note_attributes.0.value from the store"],
  ])("%s reads %s", (path, label) => expect(fieldLabel(path)).toBe(label));

  it("names every field of every domain without its code name", () => {
    for (const domain of DOMAINS)
      for (const { path } of domainFields(domain)) {
        // The open object keeps the store's own names (tested above); its own label is words.
        const label = fieldLabel(path);
        expect(label, path).not.toMatch(/[a-z][A-Z]|\.|\d\.|_/);
      }
  });
});

describe("order statuses and channels in words", () => {
  it("names payment and fulfillment statuses, and spells out one it does not know", () => {
    expect(statusWords(FINANCIAL_STATUS_LABELS, "partially_refunded")).toBe("Partially refunded");
    expect(statusWords(FULFILLMENT_STATUS_LABELS, "partial")).toBe("Partially fulfilled");
    expect(statusWords(FINANCIAL_STATUS_LABELS, "on_hold")).toBe("On hold");
  });

  it("names the common sales channels and keeps another as the store named it", () => {
    expect(salesChannelLabel("web")).toBe("Online store");
    expect(salesChannelLabel("pos")).toBe("Point of sale");
    expect(salesChannelLabel("Wholesale portal")).toBe("Wholesale portal");
  });
});

describe("inSentence", () => {
  it.each([
    ["Created", "created"],
    ["First line item › SKU", "first line item › SKU"],
    ["SKU", "SKU"],
    ["ID", "ID"],
  ])("%s in a sentence is %s", (label, words) => expect(inSentence(label)).toBe(words));
});

describe("DOMAIN_LABELS", () => {
  it.each([
    ["order", "an order"],
    ["invoice", "an invoice"],
    ["customer", "a customer"],
    ["cart", "a cart"],
  ] as const)("%s takes its article: %s", (domain, a) => expect(DOMAIN_LABELS[domain].a).toBe(a));
});

describe("money in record names", () => {
  const order = { number: "1022", total: 780, currency: "EUR", email: "ada@example.com", status: "paid" };

  it("writes money as the merchant reads it, in the record's currency, in pickers and in history alike", () => {
    expect(entityLabel("order", "o1", order)).toBe("Order #1022 · ada@example.com · €780.00 · paid");
    expect(entityTitle("order", "o1", order)).toBe("Order #1022 · €780.00 · ada@example.com");
    expect(entityTitle("order", "o1", { ...order, currency: "usd" })).toBe(
      "Order #1022 · $780.00 · ada@example.com",
    );
  });
});

describe("labels of paths by name and by any item (issue 49)", () => {
  it("names a store's named values and any item", () => {
    expect(fieldLabel("attributes.note_attributes[name=gift_note].value")).toBe('Note attribute "gift_note"');
    expect(fieldLabel("attributes.line_items.*.properties[name=engraving].value")).toBe(
      `Any line item's property "engraving"`,
    );
    expect(fieldLabel("attributes.meta_data[key=gift_message].value")).toBe('Meta field "gift_message"');
    expect(fieldLabel("lineItems.*.sku")).toBe("Any line item › SKU");
    expect(fieldLabel("lineItems[sku=MUG].quantity")).toBe('Line item "MUG" › Quantity');
    expect(fieldLabel("attributes.note_attributes.0.value")).toBe("note_attributes.0.value from the store");
  });
});
