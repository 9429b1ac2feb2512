import { describe, expect, test } from "vitest";
import { entityTitle, runEntityTitle } from "@/lib/domains/labels";

describe("entityTitle", () => {
  test("names records the way merchants do, money in the record's currency", () => {
    expect(
      entityTitle("order", "ord_1022", {
        number: "1022",
        total: 65,
        currency: "EUR",
        email: "ada@example.com",
      }),
    ).toBe("Order #1022 · €65.00 · ada@example.com");
    expect(entityTitle("order", "ord_1", { number: "#1", total: 1250.5, currency: "USD" })).toBe(
      "Order #1 · $1,250.50",
    );
    expect(entityTitle("customer", "cus_1", { name: "Ada Lovelace", email: "ada@example.com" })).toBe(
      "Customer Ada Lovelace (ada@example.com)",
    );
    expect(entityTitle("customer", "cus_2", { email: "bo@example.com" })).toBe("Customer bo@example.com");
    expect(entityTitle("product", "p_1", { title: "Mug", inventory: 3 })).toBe("Product 'Mug'");
  });

  test("a code Intl does not know stays after the amount", () => {
    expect(entityTitle("order", "o", { number: "#2", total: 5, currency: "XYZW" })).toBe(
      "Order #2 · 5.00 XYZW",
    );
  });
});

describe("runEntityTitle", () => {
  test("a deleted record keeps its id; a run about no record has no title", () => {
    expect(runEntityTitle("order", "ord_1022", null)).toBe("order ord_1022 (deleted)");
    expect(runEntityTitle("webhook", null, null)).toBeNull();
    expect(runEntityTitle("schedule", "tick", null)).toBeNull();
  });
});
