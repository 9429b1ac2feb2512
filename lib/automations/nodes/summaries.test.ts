import { describe, expect, it } from "vitest";
import { APPROVAL_OUTS } from "./timing/approval";
import { handleLabel } from "./catalog";
import { flowDomain, registry, summariseNode } from "./registry";

const email = {
  type: "auto.action.send_email",
  params: { to: "{entity.email}", subject: "Your order {entity.number} is running late", body: "x" },
};

describe("summariseNode speaks the merchant's words", () => {
  it.each([
    [
      email,
      { domain: "order" },
      "Email the order's email: 'Your order [the order's number] is running late'",
    ],
    [
      email,
      {
        domain: "order",
        values: {
          entity: { email: "ada@example.com", number: "#1022" },
          event: {},
          steps: {},
          variables: {},
          run: { id: "r" },
          now: new Date(0),
        },
      },
      "Email ada@example.com: 'Your order #1022 is running late'",
    ],
    [
      {
        type: "auto.control.approval",
        params: { title: "Refund {entity.total | money}?", timeoutHours: 48, approverRole: "editor" },
      },
      { domain: "order" },
      "Approval: Refund [the order's total]? · 48 h",
    ],
    [
      {
        type: "auto.control.wait_for_event",
        params: { event: "order.fulfilled", match: { kind: "same_record" }, timeoutHours: 72 },
      },
      { domain: "order" },
      "Wait up to 3 days for 'Order fulfilled'",
    ],
    [
      {
        type: "auto.control.wait_for_event",
        params: {
          event: "webhook.received",
          match: { kind: "field", path: "payload.body.email", equals: "{entity.email}" },
          timeoutHours: 36,
        },
      },
      { domain: "customer" },
      "Wait up to 36 hours for 'Webhook received' where payload.body.email is the customer's email",
    ],
    [
      { type: "auto.action.add_note", params: { body: "{entity.number}" } },
      {},
      "Add note 'the record's number'",
    ],
    [
      { type: "auto.condition.field", params: { path: "customerId", operator: "exists" } },
      { domain: "order" },
      "Customer is set",
    ],
    [
      { type: "auto.condition.field", params: { path: "lineItems.0.sku", operator: "eq", value: "A-1" } },
      { domain: "order" },
      "First line item › SKU is 'A-1'",
    ],
  ] as const)("%o with %o", (node, words, sentence) => expect(summariseNode(node, words)).toBe(sentence));

  it("no summary of any node's defaults shows a raw token or a code name", () => {
    for (const definition of registry.all()) {
      const summary = summariseNode(
        { type: definition.type, params: definition.defaultParams() },
        { domain: "order" },
      );
      expect(summary, definition.type).not.toMatch(/\{(entity|event|steps)\.|timed_out|customerId/);
    }
  });
});

describe("flowDomain", () => {
  it("is the kind of record the flow's trigger starts runs about", () => {
    expect(
      flowDomain({ nodes: [{ type: "auto.action.add_tag" }, { type: "auto.trigger.order_created" }] }),
    ).toBe("order");
    expect(flowDomain({ nodes: [{ type: "auto.action.add_tag" }] })).toBeNull();
    expect(flowDomain(null)).toBeNull();
  });
});

describe("handleLabel", () => {
  it.each([
    ["timed_out", "Timed out"],
    ["approved", "Approved"],
    ["rejected", "Rejected"],
    ["received", "Received"],
    ["true", "True"],
    ["false", "False"],
    ["some_new_exit", "Some new exit"],
  ])("%s reads %s", (handle, label) => expect(handleLabel(handle)).toBe(label));

  it("labels every out of every node type without an underscore", () => {
    for (const definition of registry.all())
      for (const out of definition.handles.out) expect(handleLabel(out), out).not.toMatch(/_/);
    expect(APPROVAL_OUTS.map(handleLabel)).toEqual(["Approved", "Rejected", "Timed out"]);
  });
});
