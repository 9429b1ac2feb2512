import { describe, expect, it } from "vitest";
import { DOMAINS } from "@/lib/domains/domains";
import { effectiveDomain } from "@/lib/automations/nodes/registry";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { edge, graph, node, waitNode, waitUntilNode } from "@/lib/automations/engine/interpreter.fixtures";
import type { GraphNode } from "@/lib/automations/graph/schema";
import { validate } from "./validate";

const paid = (id = "trigger") => node(id, "auto.trigger.order_paid");
const totalOver = (id: string, value = 100) =>
  node(id, "auto.condition.field", { path: "total", operator: "gt", value });
const addTag = (id: string, tag = "vip") => node(id, "auto.action.add_tag", { tag });
const addNote = (id: string, body = "Big order") => node(id, "auto.action.add_note", { body });
const email = (id: string, body: string, extra: Record<string, unknown> = {}) =>
  node(id, "auto.action.send_email", { subject: "Thanks", body, ...extra });
const http = (id: string, params: Record<string, unknown> = {}) =>
  node(id, "auto.action.http_request", { url: "https://hooks.test/x", ...params });
const webhookTrigger = (id = "trigger") => node(id, "auto.trigger.webhook", { token: "abcdefghijklmnop" });
const scheduleTrigger = (id = "trigger", audience?: Record<string, unknown>) =>
  node(id, "auto.trigger.schedule", {
    cron: "0 9 * * *",
    timezone: "UTC",
    ...(audience ? { audience } : {}),
  });

/** The issues as `nodeId|edgeId: message` lines, easy to read in a failure. */
function lines(input: unknown): string[] {
  return validate(input).map((i) => `${i.nodeId ?? i.edgeId ?? "-"}: ${i.message}`);
}

describe("validate: a sound flow", () => {
  // trigger ──▶ total > 100 ──true──▶ add_tag(vip)
  //                        └─false─▶ add_note
  it("has no issues", () => {
    const g = graph(
      [paid(), totalOver("cond"), addTag("tag"), addNote("note")],
      [edge("trigger", "cond"), edge("cond", "tag", "true"), edge("cond", "note", "false")],
    );
    expect(validate(g)).toEqual([]);
  });

  // trigger ──▶ has_tag(vip) ──true──▶ email
  it("accepts a condition with only one exit wired", () => {
    const g = graph(
      [paid(), node("cond", "auto.condition.has_tag", { tag: "vip" }), email("mail", "Hi {entity.email}")],
      [edge("trigger", "cond"), edge("cond", "mail", "true")],
    );
    expect(validate(g)).toEqual([]);
  });

  // trigger ──▶ a ──▶ c
  //        └──▶ b ──┘
  it("accepts a diamond", () => {
    const g = graph(
      [paid(), addTag("a", "a"), addTag("b", "b"), addNote("c")],
      [edge("trigger", "a"), edge("trigger", "b"), edge("a", "c"), edge("b", "c")],
    );
    expect(validate(g)).toEqual([]);
  });
});

describe("validate: shape", () => {
  it("reports zod's problems by path and stops there", () => {
    const input = {
      nodes: [paid(), addTag("tag", ""), { id: "bad id", type: "auto.action.add_tag", params: {} }],
      edges: [],
    };
    expect(validate(input)).toEqual([
      { nodeId: "bad id", message: "nodes.2.id: use letters, digits, dashes or underscores." },
    ]);
  });

  it("reports duplicate ids and a graph that is not an object", () => {
    expect(lines({ nodes: [paid("a"), addTag("a")], edges: [] })).toEqual([
      "a: nodes.1.id: 'a' is used by two steps.",
    ]);
    expect(lines(null)).toEqual(["-: must be an object."]);
    expect(lines({ nodes: [], edges: [], extra: 1 })).toEqual(["-: 'extra' is not part of a flow."]);
    expect(lines({ nodes: [{ id: "n1", params: {} }], edges: "none" })).toEqual([
      "n1: nodes.0.type: is required.",
      "-: edges: must be a list.",
    ]);
  });

  it("asks for a trigger in an empty flow", () => {
    expect(validate({ nodes: [], edges: [] })).toEqual([
      { message: "Add a trigger: a flow starts with one." },
    ]);
  });
});

describe("validate: steps", () => {
  // trigger ──▶ fly
  it("names an unknown step type", () => {
    const g = graph([paid(), node("fly", "auto.action.fly")], [edge("trigger", "fly")]);
    expect(lines(g)).toEqual(["fly: 'auto.action.fly' is not a step Tillflow knows."]);
  });

  // trigger ──▶ add_tag("") ──▶ http(ftp://…, timeoutMs 5)
  it("names each invalid param with the step's label", () => {
    const g = graph(
      [paid(), addTag("tag", ""), http("http", { url: "ftp://x", timeoutMs: 5, colour: "red" })],
      [edge("trigger", "tag"), edge("tag", "http")],
    );
    expect(lines(g)).toEqual([
      "tag: Add tag: tag cannot be empty.",
      "http: Send HTTP request: url must start with https:// or http://.",
      "http: Send HTTP request: timeoutMs must be at least 1000.",
      "http: Send HTTP request: 'colour' is not a setting of this step.",
    ]);
  });

  // schedule(cron "daily") ──▶ http
  it("checks trigger params too", () => {
    const g = graph(
      [node("trigger", "auto.trigger.schedule", { cron: "daily", timezone: "Nowhere" }), http("http")],
      [edge("trigger", "http")],
    );
    expect(lines(g)).toEqual([
      "trigger: On a schedule: cron must have five fields (minute hour day month weekday), such as 0 9 * * 1.",
      "trigger: On a schedule: timezone must be a time zone such as Europe/Paris or UTC.",
    ]);
  });
});

describe("validate: connections", () => {
  // trigger ──▶ tag ──▶ ghost        phantom ──▶ tag
  it("names connections to or from a missing step", () => {
    const g = graph(
      [paid(), addTag("tag")],
      [edge("trigger", "tag"), edge("tag", "ghost"), edge("phantom", "tag")],
    );
    expect(lines(g)).toEqual([
      "e_tag_out_ghost: This connection leads to 'ghost', which is not a step of this flow.",
      "e_phantom_out_tag: This connection starts at 'phantom', which is not a step of this flow.",
    ]);
  });

  // trigger ──▶ total > 100 ──maybe──▶ add_tag
  //                        └─true──▶ add_note
  it("names an exit the step does not have", () => {
    const g = graph(
      [paid(), totalOver("cond"), addTag("tag"), addNote("note")],
      [edge("trigger", "cond"), edge("cond", "tag", "maybe"), edge("cond", "note", "true")],
    );
    expect(validate(g)).toEqual([
      { edgeId: "e_cond_maybe_tag", message: "Condition 'Total is greater than 100' has no 'maybe' exit." },
      // The bad connection does not count, so add_tag hangs loose.
      { nodeId: "tag", message: "This step is not connected to a trigger." },
    ]);
  });

  // trigger ──▶ add_tag ──true──▶ add_note
  it("names a condition exit on an action", () => {
    const g = graph(
      [paid(), addTag("tag"), addNote("note")],
      [edge("trigger", "tag"), edge("tag", "note", "true")],
    );
    expect(lines(g)).toContain("e_tag_true_note: 'Add tag' has no 'true' exit.");
  });

  // trigger ──▶ add_tag ──▶ trigger2
  it("refuses a connection into a trigger", () => {
    const g = graph(
      [paid(), addTag("tag"), paid("trigger2")],
      [edge("trigger", "tag"), edge("tag", "trigger2")],
    );
    expect(lines(g)).toEqual([
      "e_tag_out_trigger2: A trigger starts the flow, so nothing can lead into it.",
      "trigger2: Add a step after this trigger: it leads nowhere.",
    ]);
  });
});

describe("validate: structure", () => {
  // add_tag ──▶ add_note
  it("asks for a trigger", () => {
    const g = graph([addTag("tag"), addNote("note")], [edge("tag", "note")]);
    expect(lines(g)).toEqual([
      "-: Add a trigger: a flow starts with one.",
      "tag: This step is not connected to a trigger.",
      "note: This step is not connected to a trigger.",
    ]);
  });

  // trigger
  it("asks for a step after a lone trigger", () => {
    expect(lines(graph([paid()]))).toEqual(["trigger: Add a step after this trigger: it leads nowhere."]);
  });

  // trigger ──▶ add_tag ──▶ add_note ──▶ total > 100 ──true──▶ add_tag (loop)
  it("names one step of a loop and the steps it loops through", () => {
    const g = graph(
      [paid(), addTag("tag"), addNote("note"), totalOver("cond")],
      [edge("trigger", "tag"), edge("tag", "note"), edge("note", "cond"), edge("cond", "tag", "true")],
    );
    expect(lines(g)).toEqual([
      "tag: This step loops back to itself through 'Add note 'Big order'', 'Total is greater than 100'.",
    ]);
  });

  // trigger ──▶ add_tag ──┐
  //               ▲───────┘
  it("names a step that leads to itself", () => {
    const g = graph([paid(), addTag("tag")], [edge("trigger", "tag"), edge("tag", "tag")]);
    expect(lines(g)).toEqual(["tag: This step loops back to itself through its own exit."]);
  });

  // trigger ──▶ add_tag        add_note ──▶ email      (island)
  it("names every step not connected to a trigger", () => {
    const g = graph(
      [paid(), addTag("tag"), addNote("note"), email("mail", "Hi")],
      [edge("trigger", "tag"), edge("note", "mail")],
    );
    expect(lines(g)).toEqual([
      "note: This step is not connected to a trigger.",
      "mail: This step is not connected to a trigger.",
    ]);
  });

  // trigger ──▶ total > 100        (no exits)
  it("names a condition that leads nowhere", () => {
    const g = graph([paid(), totalOver("cond")], [edge("trigger", "cond")]);
    expect(lines(g)).toEqual(["cond: This condition leads nowhere."]);
  });

  // later(a) ──▶ http      later(a) ──▶ http
  it("refuses two later triggers with the same step", () => {
    const g = graph(
      [
        node("t1", "auto.trigger.later", { step: "a" }),
        http("h1"),
        node("t2", "auto.trigger.later", { step: "a" }),
        http("h2"),
      ],
      [edge("t1", "h1"), edge("t2", "h2")],
    );
    expect(lines(g)).toEqual([
      "t2: Another trigger already starts when the later step 'a' comes due; give each a different name.",
    ]);
  });
});

describe("validate: domains", () => {
  const field = (id: string, path: string, operator = "lt", value: unknown = 5): GraphNode =>
    node(id, "auto.condition.field", { path, operator, value });

  // order_paid ──▶ inventory < 5 ──true──▶ add_tag
  it("names a field the trigger's record does not have", () => {
    const g = graph(
      [paid(), field("cond", "inventory"), addTag("tag")],
      [edge("trigger", "cond"), edge("cond", "tag", "true")],
    );
    expect(lines(g)).toEqual(["cond: 'inventory' is not a field of an order."]);
  });

  // order_paid ──▶ attributes.note_attributes.0.value = gift ──true──▶ add_tag
  //            └─▶ shippingAdress.country = DE (misspelt)
  it("accepts any path under what the store sent, and still names a misspelt known field", () => {
    const g = graph(
      [
        paid(),
        field("gift", "attributes.note_attributes.0.value", "eq", "gift"),
        field("de", "shippingAddress.countryCode", "eq", "DE"),
        field("typo", "shippingAdress.country", "eq", "DE"),
        addTag("tag"),
      ],
      [
        edge("trigger", "gift"),
        edge("gift", "de", "true"),
        edge("de", "typo", "true"),
        edge("typo", "tag", "true"),
      ],
    );
    expect(lines(g)).toEqual(["typo: 'shippingAdress.country' is not a field of an order."]);
  });

  // product_low_stock ──▶ inventory < 5 ──true──▶ add_tag
  it("accepts the same field under a trigger whose record has it", () => {
    const g = graph(
      [
        node("trigger", "auto.trigger.product_low_stock", { threshold: 5 }),
        field("cond", "inventory"),
        addTag("tag"),
      ],
      [edge("trigger", "cond"), edge("cond", "tag", "true")],
    );
    expect(validate(g)).toEqual([]);
  });

  // order_paid ──┐
  //              ├──▶ total > 100 ──true──▶ add_tag
  // low_stock  ──┘
  it("checks a step against each trigger above it", () => {
    const g = graph(
      [paid(), node("stock", "auto.trigger.product_low_stock"), totalOver("cond"), addTag("tag")],
      [edge("trigger", "cond"), edge("stock", "cond"), edge("cond", "tag", "true")],
    );
    expect(lines(g)).toEqual(["cond: 'total' is not a field of a product."]);
  });

  // order_paid ──▶ status = 'shipped' ──true──▶ add_tag
  it("names a value an enum field never takes", () => {
    const g = graph(
      [paid(), field("cond", "status", "eq", "shipped"), addTag("tag")],
      [edge("trigger", "cond"), edge("cond", "tag", "true")],
    );
    expect(lines(g)).toEqual([
      "cond: 'shipped' is never the status of an order; use one of pending, paid, fulfilled, cancelled, refunded.",
    ]);
  });

  // webhook ──▶ wait for event (same record) ──timed_out──▶ http
  it("asks a wait for an event under a trigger without a record to match a field", () => {
    const waitFor = (match: Record<string, unknown>) =>
      node("wait", "auto.control.wait_for_event", { event: "webhook.received", match, timeoutHours: 24 });
    const under = (trigger: GraphNode, match: Record<string, unknown>) =>
      lines(
        graph(
          [trigger, waitFor(match), http("http")],
          [edge("trigger", "wait"), edge("wait", "http", "timed_out")],
        ),
      );
    const advice = ": match a field of the event instead (“A field of the event equals a value”).";
    expect(under(webhookTrigger(), { kind: "same_record" })).toEqual([
      `wait: This wait listens for an event about the run's record, but a webhook run has none${advice}`,
    ]);
    expect(under(scheduleTrigger(), { kind: "same_record" })).toEqual([
      `wait: This wait listens for an event about the run's record, but a schedule without an audience has none${advice}`,
    ]);
    expect(under(scheduleTrigger("trigger", { acceptsMarketing: true }), { kind: "same_record" })).toEqual(
      [],
    );
    expect(under(paid(), { kind: "same_record" })).toEqual([]);
    expect(
      under(webhookTrigger(), {
        kind: "field",
        path: "payload.body.email",
        equals: "{event.payload.body.email}",
      }),
    ).toEqual([]);
  });

  // webhook ──▶ has_tag(vip) ──true──▶ http
  it("says a webhook run has no record for a condition to check", () => {
    const g = graph(
      [webhookTrigger(), node("cond", "auto.condition.has_tag", { tag: "vip" }), http("http")],
      [edge("trigger", "cond"), edge("cond", "http", "true")],
    );
    expect(lines(g)).toEqual(["cond: This condition checks a record, but a webhook run has none."]);
  });

  // webhook(signed, no secret) ──▶ http
  it("says a webhook trigger that must be signed needs a secret; unsigned on purpose, or with one, it is fine", () => {
    const withParams = (params: Record<string, unknown>) =>
      graph(
        [node("trigger", "auto.trigger.webhook", { token: "abcdefghijklmnop", ...params }), http("http")],
        [edge("trigger", "http")],
      );
    expect(lines(withParams({ signed: true }))).toEqual([
      "trigger: Choose a signing secret for this webhook, or turn off Only signed requests: unsigned, anyone with its link can start runs.",
    ]);
    expect(
      lines(withParams({ signed: true, secretCredentialId: "22222222-2222-4222-8222-222222222222" })),
    ).toEqual([]);
    expect(lines(withParams({ signed: false }))).toEqual([]);
    // Graphs saved before the setting existed keep accepting unsigned requests.
    expect(lines(withParams({}))).toEqual([]);
  });

  // webhook ──▶ add_tag
  it("says a webhook run has no record to tag", () => {
    const g = graph([webhookTrigger(), addTag("tag")], [edge("trigger", "tag")]);
    expect(lines(g)).toEqual(["tag: Add tag needs a record, but a webhook run has none."]);
  });

  // webhook ──▶ http(body {event.payload.id}) ──▶ create_task
  // schedule ──▶ http
  it("does not flag steps that work under any trigger", () => {
    const task = node("task", "auto.action.create_task", { title: "Check {event.payload.id}" });
    const hook = graph(
      [webhookTrigger(), http("http", { body: '{"id": "{event.payload.id}"}' }), task],
      [edge("trigger", "http"), edge("http", "task")],
    );
    expect(validate(hook)).toEqual([]);
    expect(validate(graph([scheduleTrigger(), http("http")], [edge("trigger", "http")]))).toEqual([]);
  });

  // later(step) ──▶ add_note
  it("says a run started by a later step has no record to note on", () => {
    const g = graph(
      [node("trigger", "auto.trigger.later", { step: "x" }), addNote("note")],
      [edge("trigger", "note")],
    );
    expect(lines(g)).toEqual(["note: Add note needs a record, but a run started by a later step has none."]);
  });

  // schedule(audience) ──▶ totalSpent > 100 ──true──▶ email({entity.email})
  it("treats a schedule with an audience as a customer flow", () => {
    const g = graph(
      [
        scheduleTrigger("trigger", { acceptsMarketing: true }),
        field("cond", "totalSpent", "gt", 100),
        email("mail", "Hi {entity.name}"),
      ],
      [edge("trigger", "cond"), edge("cond", "mail", "true")],
    );
    expect(validate(g)).toEqual([]);
  });

  // schedule ──▶ has_tag(vip) ──true──▶ email
  it("says a schedule without an audience has no record", () => {
    const g = graph(
      [
        scheduleTrigger(),
        node("cond", "auto.condition.has_tag", { tag: "vip" }),
        email("mail", "Hi", { to: "ops@shop.test" }),
      ],
      [edge("trigger", "cond"), edge("cond", "mail", "true")],
    );
    expect(lines(g)).toEqual([
      "cond: This condition checks a record, but a schedule without an audience has none; add an audience to run once for each customer.",
    ]);
  });
});

describe("validate: tokens", () => {
  // order_paid ──▶ email(body {entity.nope}, {entity.total})
  it("names a token that is not a field of the record", () => {
    const g = graph(
      [paid(), email("mail", "Total {entity.total}, {entity.nope}")],
      [edge("trigger", "mail")],
    );
    expect(lines(g)).toEqual(["mail: Send email, body: {entity.nope} is not a field of an order."]);
  });

  // order_paid ──▶ email(body {entity.attributes.gift_note}, {entity.shippingAddress.city}, {entity.shippingAdress.city})
  it("accepts tokens under what the store sent and the new known fields, and names a misspelt one", () => {
    const g = graph(
      [
        paid(),
        email(
          "mail",
          "{entity.attributes.note_attributes.0.value} to {entity.shippingAddress.city} {entity.customer.attributes.x} {entity.shippingAdress.city}",
        ),
      ],
      [edge("trigger", "mail")],
    );
    expect(lines(g)).toEqual([
      "mail: Send email, body: {entity.shippingAdress.city} is not a field of an order.",
    ]);
  });

  // webhook ──▶ email(to defaults to {entity.email})
  it("checks params filled in by default", () => {
    const g = graph([webhookTrigger(), email("mail", "Got {event.payload.id}")], [edge("trigger", "mail")]);
    expect(lines(g)).toEqual([
      "mail: Send email, to: A webhook run has no record; use {event.payload.…} instead of {entity.email}.",
    ]);
  });

  // trigger ──▶ total > 100 ──true──▶ http ──▶ note({steps.http.status})
  //                        └─false─▶ email({steps.http.status}, {steps.note.x})
  it("names a step token whose step does not run before", () => {
    const g = graph(
      [
        paid(),
        totalOver("cond"),
        http("http"),
        addNote("note", "Status {steps.http.status}, cond {steps.cond.result}"),
        email("mail", "Status {steps.http.status} {steps.note.id}"),
      ],
      [
        edge("trigger", "cond"),
        edge("cond", "http", "true"),
        edge("http", "note"),
        edge("cond", "mail", "false"),
      ],
    );
    expect(lines(g)).toEqual([
      "mail: Send email, body: {steps.http.status} refers to step 'http', which does not run before this step.",
      "mail: Send email, body: {steps.note.id} refers to step 'note', which does not run before this step.",
    ]);
  });

  // trigger ──▶ http(headers X-Run {run.id}, X-Bad {bogus.x})
  it("checks header values and unknown roots", () => {
    const g = graph(
      [paid(), http("http", { headers: { "X-Run": "{run.id}", "X-Bad": "{bogus.x}" } })],
      [edge("trigger", "http")],
    );
    expect(lines(g)).toEqual([
      "http: Send HTTP request, headers.X-Bad: {bogus.x} is not a token Tillflow knows; a token starts with entity, event, steps, variables, run or now.",
    ]);
  });

  // order_paid ──▶ email(subject {customer.name}, body {entity.total | foo}, to {entity.customer.email})
  it("checks an order's customer fields and filters", () => {
    const g = graph(
      [
        paid(),
        node("mail", "auto.action.send_email", {
          to: "{entity.customer.email}",
          subject: "Hi {customer.name}",
          body: "{entity.total | money} {entity.createdAt | date} {entity.total | foo}",
        }),
      ],
      [edge("trigger", "mail")],
    );
    expect(lines(g)).toEqual([
      "mail: Send email, subject: {customer.name} is not available here: use {entity.customer.name}, the customer of the order.",
      "mail: Send email, body: Unknown filter 'foo' in {entity.total | foo}: use money, date, json, url or raw.",
    ]);
  });

  // order_paid ──▶ email(subject {entity.nope}, body empty)
  it("checks tokens while another param is invalid, so every problem shows at once", () => {
    const g = graph(
      [
        paid(),
        node("mail", "auto.action.send_email", { to: "{entity.email}", subject: "{entity.nope}", body: "" }),
      ],
      [edge("trigger", "mail")],
    );
    expect(lines(g)).toEqual([
      "mail: Send email: body cannot be empty.",
      "mail: Send email, subject: {entity.nope} is not a field of an order.",
    ]);
  });

  // add_note({entity.nope} {foo})      (no trigger above)
  it("still checks an unconnected step's tokens, but not its entity fields", () => {
    const g = graph(
      [paid(), addTag("tag"), addNote("note", "{entity.nope} {foo}")],
      [edge("trigger", "tag")],
    );
    expect(lines(g)).toEqual([
      "note: This step is not connected to a trigger.",
      "note: Add note, body: {foo} is not a token Tillflow knows; a token starts with entity, event, steps, variables, run or now.",
    ]);
  });
});

describe("validate: waits", () => {
  // trigger ──▶ wait(n unit) ──▶ add_tag
  const waitThenTag = (duration: number, unit: "minutes" | "hours" | "days") =>
    graph([paid(), waitNode("w", duration, unit), addTag("tag")], [edge("trigger", "w"), edge("w", "tag")]);

  it("accepts a wait of up to 30 days, in any unit", () => {
    expect(validate(waitThenTag(30, "days"))).toEqual([]);
    expect(validate(waitThenTag(720, "hours"))).toEqual([]);
    expect(validate(waitThenTag(43_200, "minutes"))).toEqual([]);
    expect(validate(waitThenTag(1, "minutes"))).toEqual([]);
  });

  it("says a wait can be at most 30 days, on the node, while its params still parse", () => {
    expect(validate(waitThenTag(31, "days"))).toEqual([
      { nodeId: "w", message: "A wait can be at most 30 days." },
    ]);
    expect(lines(waitThenTag(721, "hours"))).toEqual(["w: A wait can be at most 30 days."]);
    expect(lines(waitThenTag(43_201, "minutes"))).toEqual(["w: A wait can be at most 30 days."]);
    // A wait whose params do not parse gets the params problem, not the limit.
    expect(lines(waitThenTag(0, "days"))).toEqual(["w: Wait: duration must be at least 1."]);
  });

  // trigger ──▶ wait              trigger ──▶ wait_until
  it("says a wait with nothing after it leads nowhere", () => {
    expect(lines(graph([paid(), waitNode("w")], [edge("trigger", "w")]))).toEqual([
      "w: This wait leads nowhere.",
    ]);
    expect(lines(graph([paid(), waitUntilNode("w")], [edge("trigger", "w")]))).toEqual([
      "w: This wait leads nowhere.",
    ]);
  });

  // trigger ──▶ wait(45 days)        (nothing after it)
  it("reports both the limit and leading nowhere", () => {
    expect(lines(graph([paid(), waitNode("w", 45, "days")], [edge("trigger", "w")]))).toEqual([
      "w: A wait can be at most 30 days.",
      "w: This wait leads nowhere.",
    ]);
  });

  // trigger ──▶ wait ──true──▶ add_tag       (a wait has no 'true' exit, so nothing sound follows it)
  it("counts only sound connections out of a wait", () => {
    expect(
      lines(graph([paid(), waitNode("w"), addTag("tag")], [edge("trigger", "w"), edge("w", "tag", "true")])),
    ).toEqual([
      "e_w_true_tag: 'Wait' has no 'true' exit.",
      "w: This wait leads nowhere.",
      "tag: This step is not connected to a trigger.",
    ]);
  });

  // trigger ──▶ add_tag        wait ──▶ add_note      (island)
  it("only says an unconnected wait is not connected", () => {
    const g = graph(
      [paid(), addTag("tag"), waitNode("w"), addNote("note")],
      [edge("trigger", "tag"), edge("w", "note")],
    );
    expect(lines(g)).toEqual([
      "w: This step is not connected to a trigger.",
      "note: This step is not connected to a trigger.",
    ]);
    expect(lines(graph([paid(), addTag("tag"), waitNode("w")], [edge("trigger", "tag")]))).toEqual([
      "w: This step is not connected to a trigger.",
    ]);
  });

  // <trigger of each domain> ──▶ wait ──▶ wait_until(Mon–Fri) ──▶ http
  const triggers: [TriggerDomain, GraphNode][] = [
    ["order", paid()],
    ["cart", node("trigger", "auto.trigger.cart_abandoned")],
    ["customer", node("trigger", "auto.trigger.customer_created")],
    ["product", node("trigger", "auto.trigger.product_low_stock", { threshold: 5 })],
    ["refund", node("trigger", "auto.trigger.refund_created")],
    ["shipment", node("trigger", "auto.trigger.shipment_delivered")],
    ["invoice", node("trigger", "auto.trigger.invoice_overdue")],
    ["webhook", webhookTrigger()],
    ["schedule", scheduleTrigger()],
    ["later", node("trigger", "auto.trigger.later", { step: "follow-up" })],
  ];

  it("covers every trigger domain in the table below", () => {
    expect(triggers.map(([, trigger]) => effectiveDomain(trigger) ?? "none")).toEqual(
      triggers.map(([domain]) => domain),
    );
    expect(new Set(triggers.map(([domain]) => domain))).toEqual(
      new Set<TriggerDomain>([...DOMAINS, "webhook", "schedule", "later"]),
    );
  });

  it.each(triggers)("raises no domain issue for a wait under a %s trigger", (_domain, trigger) => {
    const g = graph(
      [
        trigger,
        waitNode("w", 2, "days"),
        waitUntilNode("until", { weekdays: [1, 2, 3, 4, 5] }),
        http("http"),
      ],
      [edge("trigger", "w"), edge("w", "until"), edge("until", "http")],
    );
    expect(validate(g)).toEqual([]);
  });

  // cart_abandoned ──▶ wait ──▶ email({entity.total}, {steps.w.resumedAt})
  it("lets steps after a wait use its output and the record", () => {
    const g = graph(
      [
        node("trigger", "auto.trigger.cart_abandoned"),
        waitNode("w", 1, "hours"),
        email("mail", "Your cart of {entity.total}, as of {steps.w.resumedAt}"),
      ],
      [edge("trigger", "w"), edge("w", "mail")],
    );
    expect(validate(g)).toEqual([]);
  });

  // trigger ──▶ add_note({steps.w.resumedAt}) ──▶ wait
  it("still says a step token refers to a wait that runs later", () => {
    const g = graph(
      [paid(), addNote("note", "Resumed {steps.w.resumedAt}"), waitNode("w"), addTag("tag")],
      [edge("trigger", "note"), edge("note", "w"), edge("w", "tag")],
    );
    expect(lines(g)).toEqual([
      "note: Add note, body: {steps.w.resumedAt} refers to step 'w', which does not run before this step.",
    ]);
  });
});

describe("validate: what earlier steps hand on", () => {
  // trigger ──▶ http ──▶ points > 100 (steps.http.body.points) ──true──▶ note({steps.http.status} {steps.http.headers.x-tier})
  it("accepts a condition and tokens on what an HTTP step declares", () => {
    const g = graph(
      [
        paid(),
        http("http"),
        node("rich", "auto.condition.field", { path: "steps.http.body.points", operator: "gt", value: 100 }),
        addNote("note", "{steps.http.status} {steps.http.headers.x-tier} {steps.rich.result}"),
      ],
      [edge("trigger", "http"), edge("http", "rich"), edge("rich", "note", "true")],
    );
    expect(validate(g)).toEqual([]);
  });

  // trigger ──▶ http ──▶ tag ──▶ points (steps.http.points) ──true──▶ note({steps.tag.x})
  it("names a read of something a step does not hand on, and of a step that hands nothing on", () => {
    const g = graph(
      [
        paid(),
        http("http"),
        node("rich", "auto.condition.field", { path: "steps.http.points", operator: "gt", value: 100 }),
        addNote("note", "{steps.rich.score}"),
      ],
      [edge("trigger", "http"), edge("http", "rich"), edge("rich", "note", "true")],
    );
    expect(lines(g)).toEqual([
      "rich: Check a field, field: {steps.http.points} is not something step 'http' hands on; it hands on {steps.http.status}, {steps.http.headers.…}, {steps.http.body.…}, {steps.http.bodyExcerpt}, {steps.http.durationMs}, {steps.http.idempotencyKey}.",
      "note: Add note, body: {steps.rich.score} is not something step 'rich' hands on; it hands on {steps.rich.result}.",
    ]);
  });

  // trigger ──▶ code ──▶ note({steps.code.anything.at.all})
  it("lets a code step's return value be read anywhere under it", () => {
    const g = graph(
      [
        paid(),
        node("code", "auto.action.code", { source: "return { a: 1 };" }),
        addNote("note", "{steps.code.a.b}"),
      ],
      [edge("trigger", "code"), edge("code", "note")],
    );
    expect(validate(g)).toEqual([]);
  });
});

describe("validate: an Approval step's approver rules", () => {
  const FIN = "00000000-0000-4000-8000-00000000000f";
  const approval = (approvers: unknown[]) =>
    graph(
      [
        paid(),
        node("ok", "auto.control.approval", { title: "Refund", timeoutHours: 24, approvers }),
        addTag("tag"),
      ],
      [edge("trigger", "ok"), edge("ok", "tag", "approved")],
    );
  const facts = {
    approvers: { teams: { [FIN]: { name: "Finance", size: 2 } }, people: { editor: 5, admin: 2 } },
  };
  const issues = (approvers: unknown[]) =>
    validate(approval(approvers), undefined, facts).map((i) => i.message);

  it("accepts rules the shop's people can meet", () => {
    expect(
      issues([
        { role: "admin", required: 2 },
        { team: FIN, required: 2 },
      ]),
    ).toEqual([]);
  });

  it("names an unknown team, and a rule asking more people than could ever vote", () => {
    expect(issues([{ team: "00000000-0000-4000-8000-000000000000", required: 1 }])).toEqual([
      "This approval asks a team the shop does not have (deleted, or from another shop): choose one of Settings → Teams.",
    ]);
    expect(issues([{ team: FIN, required: 3 }])).toEqual([
      "This approval asks 3 from Finance, but Finance has 2 people: it could never be approved.",
    ]);
    expect(issues([{ role: "admin", required: 3 }])).toEqual([
      "This approval asks 3 admins, but the shop has 2: it could never be approved.",
    ]);
  });

  it("refuses a rule out of range or the same team twice, and no one to ask at all", () => {
    expect(issues([{ role: "admin", required: 11 }]).join(" ")).toMatch(/must be at most 10/);
    expect(
      issues([
        { team: FIN, required: 1 },
        { team: FIN, required: 1 },
      ]).join(" "),
    ).toMatch(/names the same role or team twice/);
    expect(issues([]).join(" ")).toMatch(/needs at least one rule/);
    const nobody = graph(
      [paid(), node("ok", "auto.control.approval", { title: "Refund", timeoutHours: 24 }), addTag("tag")],
      [edge("trigger", "ok"), edge("ok", "tag", "approved")],
    );
    expect(
      validate(nobody)
        .map((i) => i.message)
        .join(" "),
    ).toMatch(/say who decides/);
  });
});
