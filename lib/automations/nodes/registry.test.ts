import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { isDomain } from "@/lib/domains/domains";
import {
  createRegistry,
  effectiveDomain,
  isNodeType,
  NODE_DEFINITIONS,
  registry,
  summariseNode,
  triggerForEvent,
  triggerMatches,
  type ActionType,
  type ConditionType,
  type NodeType,
  type TriggerType,
  type WaitType,
} from "./registry";
import type { NodeDefinition } from "./types";

describe("NODE_DEFINITIONS", () => {
  it("keys every definition by its own type", () => {
    for (const [key, definition] of Object.entries(NODE_DEFINITIONS)) expect(definition.type).toBe(key);
  });

  it("derives the type unions from the categories", () => {
    expectTypeOf<ActionType>().toEqualTypeOf<
      | "auto.action.add_tag"
      | "auto.action.remove_tag"
      | "auto.action.add_note"
      | "auto.action.send_email"
      | "auto.action.http_request"
      | "auto.action.later"
      | "auto.action.code"
      | "auto.action.ai"
      | "auto.action.slack"
      | "auto.action.create_task"
      | "auto.action.mark_carts_abandoned"
      | "auto.action.mark_invoices_overdue"
      | "auto.action.purge_run_history"
      | "auto.action.store_add_tags"
      | "auto.action.store_remove_tags"
      | "auto.action.store_add_order_note"
      | "auto.action.store_hold_fulfillment"
      | "auto.action.store_release_hold"
      | "auto.action.store_set_metafield"
    >();
    expectTypeOf<ConditionType>().toEqualTypeOf<
      "auto.condition.field" | "auto.condition.has_tag" | "auto.control.split"
    >();
    // Timing nodes have no executor, so they must never be action types.
    expectTypeOf<WaitType>().toEqualTypeOf<
      | "auto.control.wait"
      | "auto.control.wait_until"
      | "auto.control.approval"
      | "auto.control.wait_for_event"
    >();
    expectTypeOf<"auto.control.wait">().not.toExtend<ActionType>();
    expectTypeOf<"auto.trigger.order_paid">().toExtend<TriggerType>();
    expectTypeOf<"auto.trigger.schedule">().toExtend<TriggerType>();
    expectTypeOf<"auto.action.add_tag">().not.toExtend<TriggerType>();
    expectTypeOf<NodeType>().toEqualTypeOf<keyof typeof NODE_DEFINITIONS>();
  });

  it("has the handles of each category", () => {
    for (const definition of registry.all()) {
      const expected = {
        trigger: { in: false, out: ["out"] },
        condition:
          definition.type === "auto.control.split"
            ? { in: true, out: [], outFrom: "branches" }
            : { in: true, out: ["true", "false"] },
        action: { in: true, out: ["out"] },
        wait:
          definition.type === "auto.control.approval"
            ? { in: true, out: ["approved", "rejected", "timed_out"] }
            : definition.type === "auto.control.wait_for_event"
              ? { in: true, out: ["received", "timed_out"] }
              : { in: true, out: ["out"] },
      }[definition.category];
      expect(definition.handles, definition.type).toEqual(expected);
    }
  });

  it("gives every trigger a domain and an event, and nothing else an event", () => {
    for (const definition of registry.all()) {
      if (definition.category === "trigger") {
        expect(definition.entityDomain, definition.type).toBeTruthy();
        expect(definition.event, definition.type).toBeTruthy();
      } else {
        expect(definition.event, definition.type).toBeUndefined();
      }
    }
  });

  it("refuses unknown params on every node, naming them", () => {
    for (const definition of registry.all()) {
      const result = definition.params.safeParse({
        ...(definition.defaultParams() as Record<string, unknown>),
        bogus: 1,
      });
      expect(result.success, definition.type).toBe(false);
      expect(
        result.error?.issues.map((i) => i.message),
        definition.type,
      ).toContain("'bogus' is not a setting of this step");
    }
  });

  it("only lists params that exist as templated, and can describe every schema as JSON Schema", () => {
    for (const definition of registry.all()) {
      const schema = z.toJSONSchema(definition.params, { unrepresentable: "any" }) as {
        properties?: Record<string, unknown>;
      };
      for (const param of definition.templated ?? []) {
        expect(Object.keys(schema.properties ?? {}), definition.type).toContain(param);
      }
    }
  });

  it("refuses a comma in a tag, on every tag step, asking for one step per tag", () => {
    for (const type of ["auto.action.add_tag", "auto.action.remove_tag", "auto.condition.has_tag"] as const) {
      const params = registry.get(type)?.params;
      expect(params?.safeParse({ tag: "a, b" }).error?.issues[0]?.message, type).toBe(
        "cannot contain a comma; add one step per tag",
      );
      expect(params?.safeParse({ tag: "vip" }).success, type).toBe(true);
    }
  });

  it("summarises every node from its default params without throwing", () => {
    for (const definition of registry.all()) {
      const params = definition.params.safeParse(definition.defaultParams());
      if (params.success) expect(definition.summarise(params.data), definition.type).toBeTypeOf("string");
    }
  });
});

describe("registry", () => {
  it("gets a definition by type, and nothing for unknown or inherited names", () => {
    expect(registry.get("auto.action.add_tag")?.label).toBe("Add tag");
    expect(registry.get("auto.action.fly")).toBeUndefined();
    expect(registry.get("toString")).toBeUndefined();
    expect(registry.get("__proto__")).toBeUndefined();
    expect(isNodeType("auto.condition.field")).toBe(true);
    expect(isNodeType("constructor")).toBe(false);
  });

  it("lists by category", () => {
    expect(registry.byCategory("trigger")).toHaveLength(14);
    expect(registry.byCategory("condition").map((d) => d.type)).toEqual([
      "auto.condition.field",
      "auto.condition.has_tag",
      "auto.control.split",
    ]);
    expect(registry.byCategory("action")).toHaveLength(19);
    expect(registry.byCategory("wait").map((d) => d.type)).toEqual([
      "auto.control.wait",
      "auto.control.wait_until",
      "auto.control.approval",
      "auto.control.wait_for_event",
    ]);
    expect(registry.all()).toHaveLength(40);
  });

  it("tells conditions apart", () => {
    const field = registry.get("auto.condition.field");
    const tag = registry.get("auto.action.add_tag");
    expect(field && registry.isCondition(field)).toBe(true);
    expect(tag && registry.isCondition(tag)).toBe(false);
  });

  it("takes one more category as one more entry", () => {
    const wait: NodeDefinition = {
      type: "test.wait",
      category: "wait",
      label: "Wait",
      description: "",
      params: z.strictObject({}),
      defaultParams: () => ({}),
      handles: { in: true, out: ["out"] },
      summarise: () => "Wait",
    };
    const extended = createRegistry({ ...NODE_DEFINITIONS, "test.wait": wait });
    expect(extended.byCategory("wait").map((d) => d.type)).toEqual([
      "auto.control.wait",
      "auto.control.wait_until",
      "auto.control.approval",
      "auto.control.wait_for_event",
      "test.wait",
    ]);
    expect(extended.get("test.wait")).toBe(wait);
  });

  it("summarises a node, falling back to its draft summary or label while params are invalid", () => {
    expect(summariseNode({ type: "auto.action.add_tag", params: { tag: "vip" } })).toBe("Add tag 'vip'");
    expect(summariseNode({ type: "auto.action.add_tag", params: {} })).toBe("Add tag");
    expect(summariseNode({ type: "auto.action.fly", params: {} })).toBe("auto.action.fly");
    expect(summariseNode({ type: "auto.control.wait", params: { duration: 2, unit: "days" } })).toBe(
      "Wait 2 days",
    );
    expect(summariseNode({ type: "auto.control.wait", params: { duration: 0, unit: "days" } })).toBe(
      "Wait (set a duration)",
    );
    expect(summariseNode({ type: "auto.control.wait", params: { unit: "days" } })).toBe(
      "Wait (set a duration)",
    );
    expect(summariseNode({ type: "auto.control.wait" })).toBe("Wait (set a duration)");
    // A duration that is set but a unit that is not: nothing to say about the duration.
    expect(summariseNode({ type: "auto.control.wait", params: { duration: 2, unit: "weeks" } })).toBe("Wait");
    expect(
      summariseNode({ type: "auto.control.wait_until", params: { time: "18:30", timezone: "UTC" } }),
    ).toBe("Wait until 18:30 (UTC)");
  });
});

describe("triggerForEvent", () => {
  it("finds the triggers listening to an event", () => {
    expect(triggerForEvent("order.paid").map((d) => d.type)).toEqual(["auto.trigger.order_paid"]);
    expect(triggerForEvent("order.status_changed").map((d) => d.type)).toEqual([
      "auto.trigger.order_status_changed",
    ]);
    expect(triggerForEvent("product.low_stock").map((d) => d.type)).toEqual([
      "auto.trigger.product_low_stock",
    ]);
    expect(triggerForEvent("webhook.received").map((d) => d.type)).toEqual(["auto.trigger.webhook"]);
    expect(triggerForEvent("schedule.fired").map((d) => d.type)).toEqual(["auto.trigger.schedule"]);
    expect(triggerForEvent("later").map((d) => d.type)).toEqual(["auto.trigger.later"]);
    expect(triggerForEvent("order.nothing")).toEqual([]);
  });

  it("follows the <domain>_<verb> ← <domain>.<verb> naming for every record trigger", () => {
    for (const definition of registry.byCategory("trigger")) {
      const [domain, verb] = (definition.event ?? "").split(".");
      if (domain && isDomain(domain)) expect(definition.type).toBe(`auto.trigger.${domain}_${verb}`);
    }
  });
});

describe("triggerMatches", () => {
  const statusChanged = (from: string, to: string) => ({
    type: "order.status_changed",
    payload: { from, to },
  });

  it("matches only its own event", () => {
    expect(triggerMatches("auto.trigger.order_paid", {}, { type: "order.paid", payload: {} })).toBe(true);
    expect(triggerMatches("auto.trigger.order_paid", {}, { type: "order.created", payload: {} })).toBe(false);
    expect(triggerMatches("auto.action.add_tag", {}, { type: "order.paid", payload: {} })).toBe(false);
    expect(triggerMatches("auto.trigger.nope", {}, { type: "order.paid", payload: {} })).toBe(false);
  });

  it("takes a definition as well as a type", () => {
    const definition = registry.get("auto.trigger.order_paid");
    expect(definition && triggerMatches(definition, {}, { type: "order.paid", payload: {} })).toBe(true);
  });

  it("filters a status change by from and to", () => {
    const type = "auto.trigger.order_status_changed";
    expect(triggerMatches(type, {}, statusChanged("paid", "fulfilled"))).toBe(true);
    expect(triggerMatches(type, { to: "fulfilled" }, statusChanged("paid", "fulfilled"))).toBe(true);
    expect(triggerMatches(type, { to: "cancelled" }, statusChanged("paid", "fulfilled"))).toBe(false);
    expect(triggerMatches(type, { from: "paid" }, statusChanged("paid", "fulfilled"))).toBe(true);
    expect(triggerMatches(type, { from: "pending" }, statusChanged("paid", "fulfilled"))).toBe(false);
    expect(triggerMatches(type, { from: "paid", to: "fulfilled" }, statusChanged("paid", "fulfilled"))).toBe(
      true,
    );
    // A stored graph whose params no longer parse does not fire.
    expect(triggerMatches(type, { to: "shipped" }, statusChanged("paid", "fulfilled"))).toBe(false);
  });

  it("fires low stock only when inventory crosses the threshold on the way down", () => {
    const type = "auto.trigger.product_low_stock";
    const drop = (from: unknown, to: unknown) => ({ type: "product.low_stock", payload: { from, to } });
    expect(triggerMatches(type, { threshold: 5 }, drop(6, 5))).toBe(true);
    expect(triggerMatches(type, { threshold: 5 }, drop(10, 0))).toBe(true);
    expect(triggerMatches(type, { threshold: 5 }, drop(5, 4))).toBe(false); // already below
    expect(triggerMatches(type, { threshold: 5 }, drop(9, 6))).toBe(false); // still above
    expect(triggerMatches(type, {}, drop(6, 5))).toBe(true); // default threshold 5
    expect(triggerMatches(type, { threshold: 0 }, drop(1, 0))).toBe(true);
    expect(triggerMatches(type, { threshold: 5 }, drop("9", "1"))).toBe(false);
  });

  it("matches every other trigger on its event alone", () => {
    expect(
      triggerMatches("auto.trigger.webhook", { token: "x" }, { type: "webhook.received", payload: {} }),
    ).toBe(true);
  });
});

describe("effectiveDomain", () => {
  it("is the trigger's domain", () => {
    expect(effectiveDomain({ type: "auto.trigger.order_paid", params: {} })).toBe("order");
    expect(effectiveDomain({ type: "auto.trigger.cart_abandoned", params: {} })).toBe("cart");
    expect(effectiveDomain({ type: "auto.trigger.webhook", params: {} })).toBe("webhook");
    expect(effectiveDomain({ type: "auto.trigger.later", params: { step: "x" } })).toBe("later");
  });

  it("is customer for a schedule with an audience, schedule without", () => {
    const params = { cron: "0 9 * * *", timezone: "UTC" };
    expect(effectiveDomain({ type: "auto.trigger.schedule", params })).toBe("schedule");
    expect(effectiveDomain({ type: "auto.trigger.schedule", params: { ...params, audience: {} } })).toBe(
      "customer",
    );
  });

  it("is null for anything but a trigger", () => {
    expect(effectiveDomain({ type: "auto.action.add_tag", params: {} })).toBeNull();
    expect(effectiveDomain({ type: "auto.trigger.nope", params: {} })).toBeNull();
  });
});
