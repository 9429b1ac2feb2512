import crypto from "node:crypto";
import { TEST_MARKER } from "./mapped";
import type { Platform } from "./platforms";

/**
 * The sample a "Send a test delivery" posts: a new order in the platform's own webhook shape
 * (an order to a customer in Berlin with a discount code and a note attribute), with fresh ids so
 * each test is a new order. It is marked as a test inside the signed body (`TEST_MARKER`): its
 * order says so (a note and the `tillflow-test` tag) and starts no automation unless
 * `runAutomations` ("Also run my automations"). Even then it awaits payment, so it starts the
 * shop's "order created" flows but not its "order paid" ones. Tests use their own fixtures
 * (tests/fixtures/), not this.
 */
export function sampleDelivery(
  platform: Platform,
  at = new Date(),
  { runAutomations = false }: { runAutomations?: boolean } = {},
): { topic: string; body: Record<string, unknown> } {
  const marker = { [TEST_MARKER]: { run_automations: runAutomations } };
  const id = 9_000_000_000_000 + crypto.randomInt(0, 999_999_999);
  const number = 9000 + crypto.randomInt(0, 999);
  const when = at.toISOString();
  if (platform === "woocommerce")
    return {
      topic: "order.created",
      body: {
        id,
        number: String(number),
        status: "pending",
        currency: "EUR",
        created_via: "checkout",
        date_created_gmt: when.slice(0, 19),
        date_modified_gmt: when.slice(0, 19),
        total: "42.50",
        customer_id: 0,
        customer_note: "Test order from Tillflow.",
        billing: {
          first_name: "Test",
          last_name: "Customer",
          email: "test.customer@example.com",
          city: "Berlin",
          country: "DE",
        },
        shipping: {
          first_name: "Test",
          last_name: "Customer",
          address_1: "Torstraße 1",
          city: "Berlin",
          state: "BE",
          postcode: "10119",
          country: "DE",
        },
        line_items: [
          {
            id: 1,
            name: "Sample mug",
            product_id: 101,
            variation_id: 0,
            quantity: 1,
            price: 42.5,
            sku: "SAMPLE-MUG",
          },
        ],
        coupon_lines: [{ id: 2, code: "test10", discount: "4.25" }],
        meta_data: [{ id: 3, key: "gift_message", value: "This is a test" }],
        ...marker,
      },
    };
  return {
    topic: "orders/create",
    body: {
      id,
      name: `#${number}`,
      order_number: number,
      email: "test.customer@example.com",
      created_at: when,
      updated_at: when,
      currency: "EUR",
      total_price: "42.50",
      current_total_price: "42.50",
      financial_status: "pending",
      fulfillment_status: null,
      source_name: "web",
      test: true,
      tags: "test-delivery",
      note: "Test order from Tillflow.",
      note_attributes: [{ name: "gift_wrap", value: "yes" }],
      discount_codes: [{ code: "TEST10", amount: "4.25", type: "percentage" }],
      customer: { id: id + 1, email: "test.customer@example.com", first_name: "Test", last_name: "Customer" },
      shipping_address: {
        first_name: "Test",
        last_name: "Customer",
        address1: "Torstraße 1",
        city: "Berlin",
        province: "Berlin",
        country: "Germany",
        country_code: "DE",
        zip: "10119",
      },
      line_items: [
        {
          id: id + 2,
          title: "Sample mug",
          quantity: 1,
          price: "42.50",
          sku: "SAMPLE-MUG",
          vendor: "Tillflow samples",
          product_type: "Mugs",
          product_id: id + 3,
          variant_title: "White",
        },
      ],
      ...marker,
    },
  };
}
