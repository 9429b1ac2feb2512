import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { registry } from "@/lib/automations/nodes/registry";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { NodeConfig } from "./node-config";

// The Field picker asks what the shop's records carry; rendered to HTML, nothing is asked.
vi.mock("@/lib/actions/entities/list-attribute-paths", () => ({ listAttributePathsAction: vi.fn() }));

/**
 * The panel rendered to HTML (no DOM in these tests): what a screen reader and the Playwright
 * specs rely on, labels, names and invalid states, for every node type.
 */
function render(
  type: string,
  params: Record<string, unknown>,
  options: { domain?: TriggerDomain | null; readOnly?: boolean; client?: QueryClient } = {},
): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={options.client ?? new QueryClient()}>
      <NodeConfig
        node={{ id: "n1", type, params }}
        triggerDomain={options.domain === undefined ? "order" : options.domain}
        otherSteps={[{ id: "tag_1", label: "Add tag 'vip'" }]}
        readOnly={options.readOnly ?? false}
        onParamsChange={() => {}}
      />
    </QueryClientProvider>,
  );
}

/** The text of the label of each control (by `for`), or of the label wrapping it. */
function controlsWithoutLabel(html: string): string[] {
  const missing: string[] = [];
  for (const match of html.matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
    const attrs = match[2] ?? "";
    const id = /\bid="([^"]+)"/.exec(attrs)?.[1];
    const labelled = id !== undefined && html.includes(`for="${id}"`);
    const wrapped = /type="checkbox"/.test(attrs); // Checkboxes sit inside their <label>.
    if (!labelled && !wrapped) missing.push(match[0]);
  }
  return missing;
}

function labels(html: string): string[] {
  return [...html.matchAll(/<label[^>]*>([^<]*)/g)].map((m) => m[1] ?? "").filter(Boolean);
}

describe("NodeConfig", () => {
  it.each(registry.all().map((d) => [d.type, d]))(
    "%s: heading, description, every control labelled",
    (type, d) => {
      const html = render(type, d.defaultParams() as Record<string, unknown>);
      expect(html).toContain(d.label);
      expect(html).toContain(
        d.description.replace(/'/g, "&#x27;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
      );
      expect(controlsWithoutLabel(html)).toEqual([]);
    },
  );

  it("says so for an unknown type", () => {
    expect(render("auto.action.nope", {})).toContain("is not a step Tillflow knows");
  });

  it("Wait: Duration and Unit, the helper sentence for the trigger's record, the 30-day limit", () => {
    const html = render("auto.control.wait", { duration: 31, unit: "days" }, { domain: "customer" });
    expect(labels(html)).toEqual(expect.arrayContaining(["Duration", "Unit"]));
    expect(html).toContain(
      "When the wait finishes we look at the customer again — if it no longer matches the conditions after this step, the rest of the flow won&#x27;t run.",
    );
    expect(html).toContain("A wait can be at most 30 days.");
    expect(html).toMatch(/<input(?=[^>]*type="number")(?=[^>]*aria-invalid="true")[^>]*>/);
    expect(render("auto.control.wait", { duration: 2, unit: "days" })).not.toContain(`aria-invalid="true"`);
  });

  it("Wait: a webhook run simply carries on", () => {
    expect(render("auto.control.wait", { duration: 1, unit: "hours" }, { domain: "webhook" })).toContain(
      "When the wait finishes the flow continues with the rest of its steps.",
    );
  });

  it("Wait until: Time, Time zone, the weekdays and a word on daylight saving", () => {
    const html = render("auto.control.wait_until", {
      time: "09:00",
      timezone: "Europe/Paris",
      weekdays: [1, 5],
    });
    expect(labels(html)).toEqual(expect.arrayContaining(["Time", "Time zone"]));
    expect(html).toContain("<legend");
    expect(html.match(/type="checkbox"[^>]*checked=""/g)).toHaveLength(2);
    expect(html).toMatch(/<option value="Europe\/Paris" selected="">Paris \(Europe\) · UTC\+0[12]:00/);
    expect(html).toContain("clocks change");
    const bad = render("auto.control.wait_until", { time: "25:00", timezone: "Nowhere/Else" });
    expect(bad).toContain("must be a time of day");
    expect(bad).toContain("must be a time zone");
  });

  it("Wait for event: the event by name, which one is the run's, the time limit in days", () => {
    const html = render("auto.control.wait_for_event", {
      event: "order.fulfilled",
      match: { kind: "same_record" },
      timeoutHours: 72,
    });
    expect(labels(html)).toEqual(
      expect.arrayContaining([
        "Event",
        "About the same record",
        "A field of the event equals a value",
        "Time limit",
        "Unit",
      ]),
    );
    expect(html).toContain(">Order fulfilled</option>");
    expect(html).toMatch(/<option value="order.fulfilled" selected="">Order fulfilled<\/option>/);
    expect(html).toMatch(/<option value="days" selected="">Days<\/option>/);
    expect(html).not.toContain("Field of the event");
  });

  it("Wait for event: a field and its value (with tokens); no same record under a webhook", () => {
    const html = render(
      "auto.control.wait_for_event",
      { event: "webhook.received", match: { kind: "field", path: "", equals: "" }, timeoutHours: 36 },
      { domain: "webhook" },
    );
    expect(labels(html)).toEqual(expect.arrayContaining(["Field of the event", "Equals"]));
    expect(labels(html)).not.toContain("About the same record");
    expect(html).toContain("The field is required.");
    expect(html).toContain('placeholder="payload.body.email"');
    expect(html).toMatch(/<option value="hours" selected="">Hours<\/option>/);
  });

  it("Wait for event: the time limit's problem in days and hours, an unchosen event", () => {
    const html = render("auto.control.wait_for_event", {
      event: "",
      match: { kind: "same_record" },
      timeoutHours: 744,
    });
    expect(html).toContain("The time limit can be at most 30 days (720 hours).");
    expect(html).toContain("Choose the event to wait for.");
    expect(html).toContain("Choose an event…");
  });

  it("Check a field: known fields, operators for a number, a number input", () => {
    const html = render("auto.condition.field", { path: "total", operator: "gt", value: 100 });
    expect(labels(html)).toEqual(expect.arrayContaining(["Field", "Operator", "Value"]));
    expect(html).toContain('<option value="lineItems.0.sku">');
    expect(html).toContain("Other path…");
    expect(html).toContain("is greater than");
    expect(html).not.toContain(">contains<");
    expect(html).toMatch(/<input[^>]*type="number"[^>]*value="100"/);
  });

  it("Check a field: the new known fields by name, and what the store sent once it is read", () => {
    const loading = render("auto.condition.field", { path: "", operator: "eq", value: "" });
    expect(loading).toContain('<option value="shippingAddress.countryCode">Shipping country code</option>');
    expect(loading).toContain('<option value="financialStatus">Payment status</option>');
    expect(loading).not.toContain('<option value="attributes">');
    expect(loading).toContain('<optgroup label="From your store">');
    expect(loading).toContain("Looking through your latest orders…");

    const client = new QueryClient();
    client.setQueryData(
      ["attribute-paths", "order"],
      [
        { path: "attributes.note_attributes.0.value", type: "text", records: 3, sample: "Happy birthday" },
        { path: "attributes.total_weight", type: "number", records: 2, sample: "1200" },
      ],
    );
    const html = render(
      "auto.condition.field",
      { path: "attributes.total_weight", operator: "gt", value: 1000 },
      { client },
    );
    expect(html).toContain(
      '<option value="attributes.note_attributes.0.value">note_attributes.0.value · text · e.g. Happy birthday</option>',
    );
    // A listed path is chosen in the select, typed as the store's records show it: a number.
    expect(html).toMatch(/<option value="attributes.total_weight" selected="">/);
    expect(labels(html)).not.toContain("Path");
    expect(html).toMatch(/<input[^>]*type="number"[^>]*value="1000"/);
    expect(controlsWithoutLabel(html)).toEqual([]);

    // A path under attributes the latest records do not carry is kept, typed, and not an error.
    const typed = render("auto.condition.field", { path: "attributes.gift", operator: "exists" }, { client });
    expect(typed).toMatch(/<input[^>]*value="attributes.gift"/);
    expect(typed).not.toContain("is not a field");
  });

  it("Check a field: an enum gets a select of its values, exists no value at all", () => {
    const status = render("auto.condition.field", { path: "status", operator: "eq", value: "paid" });
    expect(status).toContain('<option value="refunded">refunded</option>');
    expect(status).not.toContain("is greater than");
    const exists = render("auto.condition.field", { path: "email", operator: "exists" });
    expect(labels(exists)).not.toContain("Value");
  });

  it("Check a field: says when a value can never match the field", () => {
    const html = render("auto.condition.field", { path: "status", operator: "eq", value: "shipped" });
    expect(html).toContain("is never the status of an order");
  });

  it("Check a field: a typed path under a webhook, or an unknown stored path", () => {
    const webhook = render(
      "auto.condition.field",
      { path: "payload.x", operator: "eq", value: "1" },
      { domain: "webhook" },
    );
    expect(webhook).not.toContain('<select id="');
    expect(webhook).toMatch(/<input[^>]*value="payload.x"/);
    const other = render("auto.condition.field", { path: "lineItems.3.sku", operator: "eq", value: "A" });
    expect(labels(other)).toContain("Path");
    expect(other).toMatch(/<input[^>]*value="lineItems.3.sku"/);
  });

  it("shows a token's problem under its own field, worded as the ready issue, and a preview", () => {
    const html = render("auto.action.send_email", {
      to: "{entity.email}",
      subject: "Hi {customer.name}",
      body: "Total {entity.total | money}",
    });
    const message =
      "{customer.name} is not available here: use {entity.customer.name}, the customer of the order.";
    const errorId = new RegExp(`<p id="([^"]+)"[^>]*>${message.replace(/[{}.|]/g, "\\$&")}</p>`).exec(
      html,
    )?.[1];
    expect(errorId).toBeDefined();
    expect(html).toMatch(
      new RegExp(
        `<input[^>]*aria-invalid="true"[^>]*aria-describedby="${errorId}[^"]*"[^>]*value="Hi \\{customer.name\\}"`,
      ),
    );
    expect(html).toContain('Preview</span><span class="text-zinc-500"> with a sample order: </span>');
    expect(html).toContain(">Total €65.00</span>");
    // The To field's token is fine: a preview, no error.
    expect(html).toContain(">ada@example.com</span>");
  });

  it("offers tokens beside templated fields only", () => {
    const html = render("auto.action.send_email", { to: "{entity.email}", subject: "", body: "" });
    // One picker per templated field, each described by its field's label.
    expect(html.match(/>Insert token<\/button>/g)).toHaveLength(3);
    for (const name of ["To", "Subject", "Body"]) {
      const labelId = new RegExp(`<label[^>]*id="([^"]+)"[^>]*>${name}<`).exec(html)?.[1];
      expect(labelId).toBeDefined();
      expect(html).toContain(`aria-describedby="${labelId}"`);
    }
    expect(html).toContain("Subject cannot be empty.");
    expect(render("auto.control.wait", { duration: 1, unit: "hours" })).not.toContain("Insert token");
  });

  it("is read-only when asked", () => {
    const html = render("auto.action.add_tag", { tag: "vip" }, { readOnly: true });
    expect(html).toContain('<fieldset disabled=""');
    expect(html).toMatch(/<input[^>]*disabled=""/);
  });

  it("Send HTTP request: an 'On failure' section instead of a raw retry field, saying the default", () => {
    const html = render("auto.action.http_request", { url: "https://example.com", method: "POST" });
    expect(html).toContain("<legend");
    expect(html).toContain(">On failure</legend>");
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*role="switch"[^>]*checked=""/);
    expect(labels(html)).toEqual(
      expect.arrayContaining(["Attempts", "Wait between attempts", "First wait (seconds)"]),
    );
    // The generic form would have shown retry as a JSON textarea labelled "Retry".
    expect(labels(html)).not.toContain("Retry");
    expect(html.match(/<textarea/g)).toHaveLength(2); // Headers and Body.
    expect(html).toContain('<option value="exponential" selected="">Doubling</option>');
    expect(html).toContain("On failure: retry 2 times, waiting 30 s, then 1 min.");
    expect(html).toContain("This is the default.");
    expect(html).not.toContain("Use the default");
  });

  it("Send HTTP request: a stored retry, switched off, or out of range", () => {
    const stored = render("auto.action.http_request", {
      url: "https://example.com",
      retry: { attempts: 5, backoff: "fixed", initialSeconds: 10 },
    });
    expect(stored).toContain("On failure: retry 4 times, waiting 10 s, then 10 s, 10 s, 10 s.");
    expect(stored).not.toContain("This is the default.");
    expect(stored).toContain("Use the default");
    const off = render("auto.action.http_request", {
      url: "https://example.com",
      retry: { attempts: 1, backoff: "exponential", initialSeconds: 30 },
    });
    expect(off).toContain("On failure: no retries.");
    expect(off).not.toContain("Attempts");
    const bad = render("auto.action.http_request", {
      url: "https://example.com",
      retry: { attempts: 12, backoff: "exponential", initialSeconds: 30 },
    });
    expect(bad).toContain("Attempts must be at most 10.");
    expect(bad).toMatch(/<input(?=[^>]*type="number")(?=[^>]*aria-invalid="true")[^>]*value="12"/);
    expect(bad).not.toContain("On failure: retry");
  });
});
