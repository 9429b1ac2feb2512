import { describe, expect, it } from "vitest";
import { describeToken, describeTokens } from "./describe";
import { findTokens, type TemplateContext } from "./render";

function token(text: string) {
  return findTokens(text)[0]!;
}

describe("describeToken", () => {
  it.each([
    ["{entity.number}", "order", "the order's number"],
    ["{entity.total | money}", "order", "the order's total"],
    ["{entity.customerId}", "order", "the order's customer"],
    ["{entity.createdAt | date}", "order", "the order's creation date"],
    ["{entity.lineItems.0.sku}", "order", "the order's first line item › SKU"],
    ["{entity.customer.name}", "order", "the customer's name"],
    ["{entity.email}", "customer", "the customer's email"],
    ["{entity.number}", null, "the record's number"],
    ["{entity.number}", "webhook", "the record's number"],
    ["{event.then.name}", "later", "the handed-back name"],
    ["{event.payload.sku}", "webhook", "the event's payload › SKU"],
    ["{steps.code1.score}", "order", "the score from step 'code1'"],
    ["{variables.coupon}", "order", "the variable 'coupon'"],
    ["{run.id}", "order", "the run's ID"],
    ["{now}", "order", "the time the step runs"],
  ])("%s under %s reads %s", (text, domain, words) => expect(describeToken(token(text), domain)).toBe(words));
});

const values: TemplateContext = {
  entity: { id: "o1", number: "#1022", total: 780, currency: "EUR", email: "ada@example.com" },
  event: {},
  steps: {},
  variables: {},
  run: { id: "r1" },
  now: new Date("2026-12-01T18:13:12Z"),
  timeZone: "Europe/Paris",
};

describe("describeTokens", () => {
  it.each([
    [
      "Your order {entity.number} is running late",
      { domain: "order" },
      "Your order [the order's number] is running late",
    ],
    ["{entity.email}", { domain: "order" }, "the order's email"],
    ["  {entity.email} ", { domain: "order" }, "  the order's email "],
    ["No tokens here", { domain: "order" }, "No tokens here"],
    ['JSON {"a": 1} stays', { domain: "order" }, 'JSON {"a": 1} stays'],
    [
      "Your order {entity.number} is running late",
      { domain: "order", values },
      "Your order #1022 is running late",
    ],
    ["Total {entity.total | money}", { domain: "order", values }, "Total €780.00"],
    [
      "Ordered {entity.createdAt}",
      { domain: "order", values: { ...values, entity: { createdAt: "2026-11-30T23:30:00Z" } } },
      "Ordered Dec 1, 2026",
    ],
    ["At {now}", { domain: "order", values }, "At Dec 1, 2026"],
    // A value the run does not have is described, not left empty.
    ["For {entity.customer.name}", { domain: "order", values }, "For [the customer's name]"],
  ])("%s", (text, words, expected) => expect(describeTokens(text, words)).toBe(expected));
});
