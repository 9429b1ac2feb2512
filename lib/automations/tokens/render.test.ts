import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkTokens } from "@/lib/automations/review/tokens-check";
import { findTokens, renderParams, renderTemplate, templatedStrings, type TemplateContext } from "./render";

const ctx: TemplateContext = {
  entity: {
    email: "ada@shop.test",
    total: 120,
    tags: ["vip"],
    lineItems: [{ sku: "A-1" }],
    name: "<b>Ada</b>",
  },
  event: { type: "order.paid", payload: { from: "pending", to: "paid", note: "Tom & Jerry's" } },
  steps: { http: { status: 200, body: { ok: true } } },
  variables: { coupon: "WELCOME10" },
  run: { id: "run-1" },
  now: new Date("2026-11-30T09:00:00Z"),
};

describe("findTokens", () => {
  it("finds each token with its root, path and offsets", () => {
    const text = "Hi {entity.email}, see {steps.http.body.ok} at {now}";
    const tokens = findTokens(text);
    expect(tokens.map(({ token, root, path, filter }) => ({ token, root, path, filter }))).toEqual([
      { token: "{entity.email}", root: "entity", path: ["email"], filter: null },
      { token: "{steps.http.body.ok}", root: "steps", path: ["http", "body", "ok"], filter: null },
      { token: "{now}", root: "now", path: [], filter: null },
    ]);
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.token);
  });

  it("leaves braces that do not form a token alone", () => {
    expect(findTokens('{ } {"a": 1} {1abc} {entity.email thing} {}')).toEqual([]);
    expect(findTokens("{{entity.email}}").map((t) => t.token)).toEqual(["{entity.email}"]);
  });
});

describe("renderTemplate", () => {
  it("fills every root", () => {
    expect(
      renderTemplate(
        "{entity.email} {entity.lineItems.0.sku} {event.payload.to} {steps.http.status} {variables.coupon} {run.id} {now}",
        ctx,
      ),
    ).toBe("ada@shop.test A-1 paid 200 WELCOME10 run-1 2026-11-30T09:00:00.000Z");
  });

  it("renders missing and unknown values as nothing", () => {
    expect(renderTemplate("[{entity.nope}][{steps.other.x}][{foo.bar}][{run.other}][{now.x}]", ctx)).toBe(
      "[][][][][]",
    );
    expect(renderTemplate("{entity.email}", { ...ctx, entity: null })).toBe("");
  });

  it("renders objects and lists as JSON, numbers and dates as text", () => {
    expect(renderTemplate("{entity.tags} {steps.http.body} {entity.total}", ctx)).toBe(
      '["vip"] {"ok":true} 120',
    );
    expect(
      renderTemplate("{variables.when}", { ...ctx, variables: { when: new Date("2026-01-01T00:00:00Z") } }),
    ).toBe("2026-01-01T00:00:00.000Z");
  });

  it("escapes HTML in values only, not in the template", () => {
    expect(renderTemplate("<p>{entity.name} — {event.payload.note}</p>", ctx, { escapeHtml: true })).toBe(
      "<p>&lt;b&gt;Ada&lt;/b&gt; — Tom &amp; Jerry&#39;s</p>",
    );
    expect(renderTemplate("<p>{entity.name}</p>", ctx)).toBe("<p><b>Ada</b></p>");
  });

  it("never evaluates anything and never reaches a prototype", () => {
    expect(renderTemplate("{entity.constructor.name}{entity.__proto__}{entity.toString}", ctx)).toBe("");
    expect(renderTemplate("{entity.email.length}", ctx)).toBe("");
    expect(renderTemplate('{"json": true} and { }', ctx)).toBe('{"json": true} and { }');
  });
});

describe("checkTokens", () => {
  const order = { domain: "order" as const, upstreamNodeIds: new Set(["trigger", "http"]) };

  it("accepts known fields, event, variables, run.id, now and upstream steps", () => {
    expect(
      checkTokens(
        "{entity.email} {entity.lineItems.3.sku} {entity.tags} {event.payload.anything} {variables.x} {run.id} {now} {steps.http.body}",
        order,
      ),
    ).toEqual([]);
  });

  it("names a field the record does not have", () => {
    expect(checkTokens("{entity.nope}", order)).toEqual(["{entity.nope} is not a field of an order."]);
    expect(checkTokens("{entity.inventory}", { ...order, domain: "product" })).toEqual([]);
  });

  it("names a step that does not run before this one", () => {
    expect(checkTokens("{steps.later.body}", order)).toEqual([
      "{steps.later.body} refers to step 'later', which does not run before this step.",
    ]);
  });

  it("names an unknown root, and misuses of run and now", () => {
    expect(checkTokens("{shop.email}", order)).toEqual([
      "{shop.email} is not a token Tillflow knows; a token starts with entity, event, steps, variables, run or now.",
    ]);
    expect(checkTokens("{run.status} {now.date} {entity..x}", order)).toEqual([
      "{run.status} is not known; a run offers only {run.id}.",
      "{now.date} is not known; use {now} for the current time.",
      "{entity..x} is not a valid token: a dot has nothing after it.",
    ]);
  });

  it("explains that entityless runs have no record", () => {
    const none = new Set<string>();
    expect(checkTokens("{entity.email}", { domain: "webhook", upstreamNodeIds: none })).toEqual([
      "A webhook run has no record; use {event.payload.…} instead of {entity.email}.",
    ]);
    expect(checkTokens("{entity.email}", { domain: "schedule", upstreamNodeIds: none })[0]).toMatch(
      /^A scheduled run without an audience has no record/,
    );
    expect(checkTokens("{entity.email}", { domain: "later", upstreamNodeIds: none })[0]).toMatch(
      /^A run started by a later step has no record/,
    );
    // A schedule with an audience runs per customer: its effective domain is "customer".
    expect(
      checkTokens("{entity.email} {entity.totalSpent}", { domain: "customer", upstreamNodeIds: none }),
    ).toEqual([]);
  });

  it("does not check entity tokens when the domain is unknown, and reports each problem once", () => {
    expect(checkTokens("{entity.nope}", { domain: null, upstreamNodeIds: new Set() })).toEqual([]);
    expect(checkTokens("{entity.nope} {entity.nope}", order)).toHaveLength(1);
  });
});

describe("templated params", () => {
  it("lists strings and string records", () => {
    expect(
      templatedStrings({ url: "{entity.id}", headers: { "X-A": "{run.id}", n: 1 }, timeoutMs: 5 }, [
        "url",
        "headers",
        "body",
      ]),
    ).toEqual([
      { param: "url", text: "{entity.id}" },
      { param: "headers.X-A", text: "{run.id}" },
    ]);
  });

  it("renders only the templated params, escaping where asked", () => {
    const params = {
      to: "{entity.email}",
      subject: "{entity.name}",
      body: "<p>{entity.name}</p>",
      keep: "{run.id}",
    };
    expect(renderParams(params, ["to", "subject", "body"], ctx, { escapeHtml: ["body"] })).toEqual({
      to: "ada@shop.test",
      subject: "<b>Ada</b>",
      body: "<p>&lt;b&gt;Ada&lt;/b&gt;</p>",
      keep: "{run.id}",
    });
    expect(renderParams({ headers: { "X-Run": "{run.id}" } }, ["headers"], ctx)).toEqual({
      headers: { "X-Run": "run-1" },
    });
  });
});

describe("filters", () => {
  const order: TemplateContext = {
    ...ctx,
    entity: {
      total: 65,
      currency: "EUR",
      createdAt: "2026-11-30T23:30:00Z",
      lineItems: [{ price: 12.5 }],
      customer: { name: "Ada Lovelace", totalSpent: 1234.5 },
    },
    steps: { quote: { amount: 9, currency: "GBP" } },
    timeZone: "Europe/Paris",
  };

  it("finds a filter after a bar, spaces allowed, and a bare bar as an empty filter", () => {
    expect(
      findTokens("{entity.total | money}{entity.total|date}{entity.total |}").map((t) => t.filter),
    ).toEqual(["money", "date", ""]);
    expect(findTokens("{entity.total | money | date}")).toEqual([]);
  });

  it("writes money in the currency beside the value, else the record's", () => {
    expect(renderTemplate("{entity.total | money}", order)).toBe("€65.00");
    expect(renderTemplate("{entity.lineItems.0.price | money}", order)).toBe("€12.50");
    expect(renderTemplate("{entity.customer.totalSpent | money}", order)).toBe("€1,234.50");
    expect(renderTemplate("{steps.quote.amount | money}", order)).toBe("£9.00");
    expect(renderTemplate("{entity.total | money}", { ...order, entity: { total: 65 } })).toBe("65.00");
  });

  it("writes a date as the day it is in the shop's time zone", () => {
    // 23:30 UTC on the 30th is already the 1st in Paris.
    expect(renderTemplate("{entity.createdAt | date}", order)).toBe("Dec 1, 2026");
    expect(renderTemplate("{entity.createdAt | date}", { ...order, timeZone: undefined })).toBe(
      "Nov 30, 2026",
    );
    expect(renderTemplate("{now | date}", order)).toBe("Nov 30, 2026");
  });

  it("writes the value as it is when a filter does not apply, and nothing when it is missing", () => {
    expect(renderTemplate("{entity.customer.name | money}", order)).toBe("Ada Lovelace");
    expect(renderTemplate("{entity.customer.name | date}", order)).toBe("Ada Lovelace");
    expect(renderTemplate("{entity.total | foo}", order)).toBe("65");
    expect(renderTemplate("[{entity.nope | money}]", order)).toBe("[]");
  });

  it("escapes filtered values in HTML like any other", () => {
    expect(renderTemplate("<p>{entity.total | money}</p>", order, { escapeHtml: true })).toBe(
      "<p>€65.00</p>",
    );
  });
});

describe("checkTokens: filters and an order's customer", () => {
  const order = { domain: "order" as const, upstreamNodeIds: new Set<string>() };
  const customer = { domain: "customer" as const, upstreamNodeIds: new Set<string>() };

  it("accepts the known filters on any token", () => {
    expect(checkTokens("{entity.total | money} {entity.createdAt|date} {now | date}", order)).toEqual([]);
    expect(checkTokens("{entity.number | json} {entity.email | url} {entity.customer | raw}", order)).toEqual(
      [],
    );
  });

  it("names an unknown or missing filter and the ones there are", () => {
    expect(checkTokens("{entity.total | foo}", order)).toEqual([
      "Unknown filter 'foo' in {entity.total | foo}: use money, date, json, url or raw.",
    ]);
    expect(checkTokens("{entity.total |}", order)).toEqual([
      "{entity.total |} has nothing after '|': use money, date, json, url or raw.",
    ]);
  });

  it("reports a bad path before a bad filter", () => {
    expect(checkTokens("{entity.nope | foo}", order)).toEqual([
      "{entity.nope | foo} is not a field of an order.",
    ]);
  });

  it("offers an order's customer as {entity.customer.…}, checked against the customer's fields", () => {
    expect(
      checkTokens("{entity.customer} {entity.customer.name} {entity.customer.totalSpent | money}", order),
    ).toEqual([]);
    expect(checkTokens("{entity.customer.nope}", order)).toEqual([
      "{entity.customer.nope} is not a field of a customer.",
    ]);
    expect(checkTokens("{entity.customer.name}", customer)).toEqual([
      "{entity.customer.name} is not a field of a customer.",
    ]);
  });

  it("says where a record named as a root is found instead", () => {
    expect(checkTokens("{customer.name}", customer)).toEqual([
      "{customer.name} is not available here: use {entity.name}.",
    ]);
    expect(checkTokens("{customer.name | date}", order)).toEqual([
      "{customer.name | date} is not available here: use {entity.customer.name | date}, the customer of the order.",
    ]);
    expect(checkTokens("{cart.total}", order)).toEqual([
      "{cart.total} is not available here: this flow runs for an order, whose fields are {entity.…}.",
    ]);
    expect(checkTokens("{customer.name}", { domain: "webhook", upstreamNodeIds: new Set() })).toEqual([
      "A webhook run has no record; use {event.payload.…} instead of {customer.name}.",
    ]);
  });
});

describe("escaped where they land", () => {
  const eve = {
    ...ctx,
    entity: {
      name: 'Eve","vip":true,"x":"',
      total: 65.5,
      tags: ["vip", 'a"b'],
      address: { city: "Köln\n" },
      createdAt: "2026-11-30T23:30:00Z",
      currency: "EUR",
      query: "a&x=1/../?y",
      note: "<b>hi</b>\r\nBcc: evil@x.test",
    },
  };
  const json = (text: string) => renderTemplate(text, eve, { escape: "json" });

  it("in JSON, a token inside a string stays one string with its value intact", () => {
    const body = json('{"name":"{entity.name}","vip":false}');
    expect(JSON.parse(body)).toEqual({ name: 'Eve","vip":true,"x":"', vip: false });
    // A line break and a backslash in a value are escaped too; the template's own escapes are kept.
    expect(JSON.parse(json('{"city":"\\"{entity.address.city}\\" \\\\ {entity.name}"}'))).toEqual({
      city: '"Köln\n" \\ Eve","vip":true,"x":"',
    });
  });

  it("in JSON, a token where a value goes is written as JSON", () => {
    expect(
      JSON.parse(
        json(
          '{"total": {entity.total}, "name": {entity.name}, "tags": {entity.tags}, "address": {entity.address}, "none": {entity.nope}}',
        ),
      ),
    ).toEqual({
      total: 65.5,
      name: 'Eve","vip":true,"x":"',
      tags: ["vip", 'a"b'],
      address: { city: "Köln\n" },
      none: null,
    });
    // A filtered value is its text, as a string.
    expect(JSON.parse(json('{"total": {entity.total | money}, "s": "{entity.total | money}"}'))).toEqual({
      total: "€65.50",
      s: "€65.50",
    });
    expect(json("[{run.id}, {now}]")).toBe('["run-1", "2026-11-30T09:00:00.000Z"]');
  });

  // Any character, with the ones that break JSON, URLs and HTML (and lone surrogate halves) often.
  const awkward = fc.oneof(
    fc.constantFrom('"', "\\", "&", "=", "?", "/", "#", "%", "\n", "\u2028", "\uD800", "\uDC00", "{"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  );

  it("whatever the value, a JSON body parses with the value intact and the rest unchanged", () => {
    fc.assert(
      fc.property(fc.string({ unit: awkward }), fc.jsonValue(), (name, extra) => {
        const c = { ...ctx, entity: { name, extra } };
        const body = renderTemplate('{"name":"{entity.name}","vip":false,"extra":{entity.extra}}', c, {
          escape: "json",
        });
        expect(JSON.parse(body)).toEqual({ name, vip: false, extra: JSON.parse(JSON.stringify(extra)) });
        // A lone surrogate half (JSON can carry one) cannot be percent-encoded: it arrives as U+FFFD.
        const url = new URL(renderTemplate("https://a.test/p?q={entity.name}&v=1", c, { escape: "url" }));
        expect([url.pathname, url.searchParams.get("q"), url.searchParams.get("v")]).toEqual([
          "/p",
          name.toWellFormed(),
          "1",
        ]);
      }),
    );
  });

  it("a quote inside a value does not fool the scanner about the tokens after it", () => {
    const body = json('{"a":"{entity.name}","b":{entity.total},"c":"{entity.name}"}');
    expect(JSON.parse(body)).toEqual({ a: eve.entity.name, b: 65.5, c: eve.entity.name });
  });

  it("| json, | url and | raw choose the encoding themselves", () => {
    expect(json('{"name": {entity.name | json}}')).toBe(`{"name": ${JSON.stringify(eve.entity.name)}}`);
    expect(json('{"missing": {entity.nope | json}}')).toBe('{"missing": null}');
    // A merchant who splices JSON on purpose.
    expect(json('{"address": {entity.address | raw}, "s": "{entity.query | url}"}')).toBe(
      '{"address": {"city":"Köln\\n"}, "s": "a%26x%3D1%2F..%2F%3Fy"}',
    );
    expect(renderTemplate("{entity.name | json}", eve)).toBe(JSON.stringify(eve.entity.name));
    expect(renderTemplate("q={entity.query | url}", eve)).toBe("q=a%26x%3D1%2F..%2F%3Fy");
  });

  it("in a URL, values are percent-encoded, but a token the URL starts with is the address", () => {
    const url = (text: string, c: TemplateContext = eve) => renderTemplate(text, c, { escape: "url" });
    expect(url("https://api.test/find?q={entity.query}&page=1")).toBe(
      "https://api.test/find?q=a%26x%3D1%2F..%2F%3Fy&page=1",
    );
    expect(url("https://api.test/customers/{entity.query}")).toBe(
      "https://api.test/customers/a%26x%3D1%2F..%2F%3Fy",
    );
    const base = { ...eve, variables: { base: "https://api.test/v1" } };
    expect(url("{variables.base}/orders?q={entity.query}", base)).toBe(
      "https://api.test/v1/orders?q=a%26x%3D1%2F..%2F%3Fy",
    );
    expect(url("https://api.test/{entity.query | raw}")).toBe("https://api.test/a&x=1/../?y");
  });

  it("in email HTML, values are HTML-escaped unless | raw", () => {
    const html = (text: string) => renderTemplate(text, eve, { escape: "html" });
    expect(html("<p>{entity.note}</p>")).toBe("<p>&lt;b&gt;hi&lt;/b&gt;\r\nBcc: evil@x.test</p>");
    expect(html("<p>{entity.note | raw}</p>")).toBe("<p><b>hi</b>\r\nBcc: evil@x.test</p>");
    // JSON shown in an email is still text in HTML.
    expect(html("{entity.tags | json}")).toBe("[&quot;vip&quot;,&quot;a\\&quot;b&quot;]");
    // The older option means the same.
    expect(renderTemplate("{entity.note}", eve, { escapeHtml: true })).toBe(html("{entity.note}"));
  });

  it("in a header, a value cannot start another line, whatever its filter", () => {
    const header = (text: string) => renderTemplate(text, eve, { escape: "header" });
    expect(header("Thanks {entity.note}")).toBe("Thanks <b>hi</b> Bcc: evil@x.test");
    expect(header("{entity.note | raw}")).toBe("<b>hi</b> Bcc: evil@x.test");
    expect(header("{entity.address}")).not.toMatch(/[\r\n]/);
  });

  it("renderParams escapes each param as the node says", () => {
    const params = {
      url: "https://a.test/?q={entity.query}",
      body: '{"n":"{entity.name}"}',
      headers: { "X-Note": "{entity.note}" },
    };
    const out = renderParams(params, ["url", "body", "headers"], eve, {
      escape: { url: "url", body: "json", headers: "header" },
    });
    expect(out).toEqual({
      url: "https://a.test/?q=a%26x%3D1%2F..%2F%3Fy",
      body: JSON.stringify({ n: eve.entity.name }),
      headers: { "X-Note": "<b>hi</b> Bcc: evil@x.test" },
    });
  });
});

describe("tokens by name and by any item (issue 49)", () => {
  const order = { domain: "order" as const, upstreamNodeIds: new Set<string>() };
  const cart = { domain: "cart" as const, upstreamNodeIds: new Set<string>() };
  const run: TemplateContext = {
    ...ctx,
    entity: {
      customer: { firstName: "Lena" },
      lineItems: [{ sku: "MUG" }, { sku: "CAP" }],
      attributes: {
        note_attributes: [
          { name: "delivery_window", value: "evening" },
          { name: "gift note", value: "Happy birthday" },
        ],
      },
    },
  };

  it("finds and renders a note attribute by name, and every line item's SKU", () => {
    const text =
      "Hi {entity.customer.firstName}: {entity.attributes.note_attributes[name=gift note].value} ({entity.lineItems.*.sku})";
    expect(findTokens(text).map((t) => t.path)).toEqual([
      ["customer", "firstName"],
      ["attributes", "note_attributes[name=gift note]", "value"],
      ["lineItems", "*", "sku"],
    ]);
    expect(renderTemplate(text, run)).toBe("Hi Lena: Happy birthday (MUG, CAP)");
  });

  it("checks them against the record's fields, an order's and a cart's customer included", () => {
    expect(
      checkTokens(
        "{entity.customer.firstName} {entity.attributes.note_attributes[name=gift].value} {entity.lineItems.*.sku}",
        order,
      ),
    ).toEqual([]);
    expect(checkTokens("{entity.customer.firstName} {entity.items.*.sku}", cart)).toEqual([]);
    expect(checkTokens("{entity.lineItems.*.nope}", order)).toEqual([
      "{entity.lineItems.*.nope} is not a field of an order.",
    ]);
  });
});
