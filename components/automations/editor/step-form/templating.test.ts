import { describe, expect, it } from "vitest";
import { checkTokens } from "@/lib/automations/review/tokens-check";
import { httpRequest } from "@/lib/automations/nodes/http-request/http-request";
import { sendEmail } from "@/lib/automations/nodes/send-email/send-email";
import { fieldTemplating, forField, sampleRecord, templatedText } from "./templating";

const now = new Date("2026-11-30T23:30:00Z");
const upstream = new Set<string>(["tag"]);

describe("fieldTemplating", () => {
  it("previews on a sample of the trigger's record, an order with its customer", () => {
    const templating = fieldTemplating("order", upstream, { timeZone: "Europe/Paris", record: null }, now);
    expect(templating.previewOf).toBe("a sample order");
    expect(
      templatedText(
        "{entity.customer.name}: {entity.total | money} on {entity.createdAt | date}",
        templating,
      ),
    ).toEqual({ problem: undefined, preview: "Ada Lovelace: €65.00 on Dec 1, 2026" });
  });

  it("previews on the dry run's record when it is of the trigger's kind", () => {
    const record = {
      domain: "order",
      label: "Order #2002",
      data: { number: "#2002", total: 12.5, currency: "USD", customer: null },
    };
    const templating = fieldTemplating("order", upstream, { timeZone: "UTC", record }, now);
    expect(templating.previewOf).toBe("Order #2002");
    expect(templatedText("{entity.number} {entity.total | money}", templating).preview).toBe("#2002 $12.50");
    // A record of another kind (the trigger changed since) is not used.
    expect(fieldTemplating("customer", upstream, { timeZone: "UTC", record }, now).previewOf).toBe(
      "a sample customer",
    );
  });

  it("has no record to preview for a webhook", () => {
    const templating = fieldTemplating("webhook", upstream, { timeZone: "UTC", record: null }, now);
    expect(templating.previewOf).toBe("an empty record");
    expect(templatedText("[{run.id}]", templating).preview).toBe("[run_preview]");
  });
});

describe("templatedText", () => {
  const templating = fieldTemplating("customer", upstream, { timeZone: "UTC", record: null }, now);

  it("says nothing about text without tokens", () => {
    expect(templatedText("Hello", templating)).toEqual({ problem: undefined, preview: null });
  });

  it("gives the sentences validation gives, in the same words", () => {
    const text = "Hi {customer.name}, {entity.nope} {entity.totalSpent | foo}";
    const expected = checkTokens(text, { domain: "customer", upstreamNodeIds: upstream });
    expect(expected).toHaveLength(3);
    expect(templatedText(text, templating).problem).toBe(expected.join(" "));
    expect(templatedText("{customer.name}", templating).problem).toBe(
      "{customer.name} is not available here: use {entity.name}.",
    );
  });
});

describe("sampleRecord", () => {
  it("has a value for every top-level field of the domain", () => {
    const invoice = sampleRecord("invoice", now);
    expect(invoice).toMatchObject({ amount: 65, status: "draft", dueAt: now.toISOString(), id: "sample" });
    expect(sampleRecord("customer", now)).not.toHaveProperty("customer");
  });

  it("gives an order a shipping address and an empty object for what the store sent", () => {
    const order = sampleRecord("order", now);
    expect(order).toMatchObject({ shippingAddress: { city: "Berlin", countryCode: "DE" }, attributes: {} });
    const templating = fieldTemplating("order", upstream, { timeZone: "UTC", record: null }, now);
    expect(templatedText("Ships to {entity.shippingAddress.city}", templating)).toEqual({
      problem: undefined,
      preview: "Ships to Berlin",
    });
  });
});

describe("the preview escapes as the step will", () => {
  const templating = fieldTemplating("customer", upstream, { timeZone: "UTC", record: null }, now);
  const params = {
    url: "https://crm.test/find?q={entity.name}",
    headers: {},
    body: '{"name": {entity.name}}',
  };

  it("shows a JSON body's value JSON-encoded and a URL's percent-encoded", () => {
    expect(templatedText(params.body, forField(templating, httpRequest, params, "body")).preview).toBe(
      '{"name": "Ada Lovelace"}',
    );
    expect(templatedText(params.url, forField(templating, httpRequest, params, "url")).preview).toBe(
      "https://crm.test/find?q=Ada%20Lovelace",
    );
  });

  it("shows a text body's value as it is, and an email body's as its reader sees it", () => {
    const text = { ...params, headers: { "Content-Type": "text/plain" }, body: "Hi {entity.name}" };
    expect(templatedText(text.body, forField(templating, httpRequest, text, "body")).preview).toBe(
      "Hi Ada Lovelace",
    );
    const record = { domain: "customer", label: "Tom & Jerry", data: { name: "Tom & Jerry" } };
    const tried = fieldTemplating("customer", upstream, { timeZone: "UTC", record }, now);
    expect(
      templatedText("<p>{entity.name}</p>", forField(tried, sendEmail, { body: "" }, "body")).preview,
    ).toBe("<p>Tom & Jerry</p>");
  });
});
