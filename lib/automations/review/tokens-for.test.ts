import { describe, expect, it } from "vitest";
import { checkTokens } from "@/lib/automations/review/tokens-check";
import { groupTokens, insertAt, tokensFor } from "./tokens-for";

const steps = [{ id: "email_1", label: "Send email" }];

describe("tokensFor", () => {
  it("offers the record's top-level fields, the event, the run and earlier steps", () => {
    const tokens = tokensFor("order", steps).map((t) => t.token);
    expect(tokens).toEqual(
      expect.arrayContaining([
        "{entity.id}",
        "{entity.tags}",
        "{entity.email}",
        "{entity.total}",
        "{entity.lineItems}",
        "{event.type}",
        "{run.id}",
        "{now}",
        "{steps.email_1.}",
      ]),
    );
    expect(tokens.some((t) => t.startsWith("{entity.lineItems."))).toBe(false);
  });

  it("offers a shipping address by its parts, and what the store sent as a token to finish", () => {
    const options = tokensFor("order", []);
    const tokens = options.map((t) => t.token);
    expect(tokens).toEqual(
      expect.arrayContaining(["{entity.shippingAddress.countryCode}", "{entity.shippingAddress.city}"]),
    );
    expect(tokens).not.toContain("{entity.shippingAddress}");
    const open = options.find((t) => t.token === "{entity.attributes.}");
    expect(open).toMatchObject({ label: "attributes.…", caret: "{entity.attributes.".length });
    expect(tokens).not.toContain("{entity.attributes}");
  });

  it("offers an order's (and a cart's) customer, and no other record's", () => {
    const tokens = tokensFor("order", []);
    const customer = tokens.filter((t) => t.group === "Customer").map((t) => t.token);
    expect(customer).toEqual(
      expect.arrayContaining(["{entity.customer.name}", "{entity.customer.email}", "{entity.customer.id}"]),
    );
    expect(tokens.find((t) => t.token === "{entity.customer.name}")?.hint).toBe("customer · string");
    expect(tokensFor("cart", []).some((t) => t.token === "{entity.customer.firstName}")).toBe(true);
    for (const domain of ["customer", "product"] as const) {
      expect(tokensFor(domain, []).some((t) => t.token.startsWith("{entity.customer."))).toBe(false);
    }
  });

  it("offers money amounts and dates through their filters too", () => {
    const tokens = tokensFor("order", []).map((t) => t.token);
    expect(tokens).toEqual(
      expect.arrayContaining([
        "{entity.total | money}",
        "{entity.createdAt | date}",
        "{entity.customer.totalSpent | money}",
        "{now | date}",
      ]),
    );
    expect(tokens).not.toContain("{entity.status | money}");
    expect(tokensFor("invoice", []).map((t) => t.token)).toEqual(
      expect.arrayContaining(["{entity.amount | money}", "{entity.dueAt | date}"]),
    );
  });

  it("uses the fields of the trigger's own domain", () => {
    const tokens = tokensFor("customer", []).map((t) => t.token);
    expect(tokens).toContain("{entity.acceptsMarketing}");
    expect(tokens).not.toContain("{entity.total}");
  });

  it("offers no record tokens when runs have none, but the payload of a webhook", () => {
    for (const domain of ["webhook", "schedule", "later", null] as const) {
      expect(tokensFor(domain, []).some((t) => t.token.startsWith("{entity."))).toBe(false);
    }
    expect(tokensFor("webhook", []).map((t) => t.token)).toContain("{event.payload.}");
    expect(tokensFor("later", []).map((t) => t.token)).toContain("{event.then.}");
  });

  it("offers only tokens validation accepts (open ones once their path is typed)", () => {
    const upstreamNodeIds = new Set(["email_1"]);
    for (const domain of ["order", "customer", "webhook", "later"] as const) {
      for (const option of tokensFor(domain, steps)) {
        const text =
          option.caret === undefined
            ? option.token
            : insertAt(option.token, option.caret, option.caret, "x").text;
        expect(checkTokens(text, { domain, upstreamNodeIds }), text).toEqual([]);
      }
    }
  });

  it("puts the caret inside an open token, before its closing brace", () => {
    const step = tokensFor(null, steps).find((t) => t.group === "Steps")!;
    expect(step.token.slice(0, step.caret)).toBe("{steps.email_1.");
    expect(step.hint).toBe("Send email");
  });

  it("leaves out a step whose id a token cannot name", () => {
    const tokens = tokensFor(null, [{ id: "send-email", label: "Send email" }]);
    expect(tokens.some((t) => t.group === "Steps")).toBe(false);
  });

  it("groups consecutive options for the listbox headings", () => {
    expect(groupTokens(tokensFor("order", steps)).map((g) => g.group)).toEqual([
      "Record",
      "Customer",
      "Event",
      "Run",
      "Steps",
    ]);
    expect(groupTokens(tokensFor("webhook", [])).map((g) => g.group)).toEqual(["Event", "Run"]);
  });
});

describe("insertAt", () => {
  it("inserts at the caret and puts the caret after the token", () => {
    expect(insertAt("Hi !", 3, 3, "{entity.name}")).toEqual({ text: "Hi {entity.name}!", caret: 16 });
  });

  it("replaces a selection", () => {
    expect(insertAt("Hi NAME!", 3, 7, "{now}")).toEqual({ text: "Hi {now}!", caret: 8 });
  });

  it("appends when there is no caret, and clamps a stale one", () => {
    expect(insertAt("abc", null, null, "{now}")).toEqual({ text: "abc{now}", caret: 8 });
    expect(insertAt("abc", 10, 12, "{now}")).toEqual({ text: "abc{now}", caret: 8 });
    expect(insertAt("abc", 2, 1, "{now}").text).toBe("ab{now}c");
  });

  it("puts the caret where the option asks", () => {
    expect(insertAt("", 0, 0, "{steps.a.}", 9)).toEqual({ text: "{steps.a.}", caret: 9 });
  });
});

describe("tokensFor: what earlier steps hand on", () => {
  it("offers each declared output by its label; a path ending .* as an open token; a step declaring nothing as before", () => {
    const options = tokensFor("order", [
      {
        id: "h",
        label: "GET https://loyalty.test",
        outputs: [
          { path: "status", label: "the answer's status code" },
          { path: "body.*", label: "a field of the JSON answer" },
        ],
      },
      { id: "w", label: "Wait 2 days" },
    ]).filter((option) => option.group === "Steps");
    expect(options.map(({ token, hint, caret }) => ({ token, hint, caret }))).toEqual([
      { token: "{steps.h.status}", hint: "the answer's status code", caret: undefined },
      { token: "{steps.h.body.}", hint: "a field of the JSON answer", caret: "{steps.h.body.".length },
      { token: "{steps.w.}", hint: "Wait 2 days", caret: "{steps.w.".length },
    ]);
  });
});
