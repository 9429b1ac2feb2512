import { describe, expect, test } from "vitest";
import { addTag } from "@/lib/automations/nodes/tags/add-tag";
import { createRegistry, NODE_DEFINITIONS, registry } from "@/lib/automations/nodes/registry";
import { FlowSpec, flowSpecJsonSchema, flowSpecSchema, LooseFlowSpec, specTypes } from "./spec";

describe("FlowSpec types come from the registry", () => {
  test("every type a merchant may use is in the enums, by category; platform jobs and splits are not", () => {
    const types = specTypes();
    const all = [
      ...types.trigger,
      ...types.action,
      ...types.condition,
      ...types.wait,
      types.approval,
      types.waitForEvent,
    ];
    // A split's exits are its branches, which a FlowSpec's then/else cannot say.
    const usable = registry
      .all()
      .filter((d) => !d.platform && d.handles.outFrom === undefined)
      .map((d) => d.type);
    expect([...all].sort()).toEqual([...usable].sort());
    for (const d of registry.all().filter((x) => x.platform)) expect(all).not.toContain(d.type);
    expect(all).not.toContain("auto.control.split");
    expect(types.wait).toEqual(["auto.control.wait", "auto.control.wait_until"]);
    expect(types.approval).toBe("auto.control.approval");
    expect(types.waitForEvent).toBe("auto.control.wait_for_event");
    expect(types.action).toContain("auto.action.code");

    // The same enums in the JSON Schema the model is given (an approval or a wait for an event
    // names no type).
    const schema = JSON.stringify(flowSpecJsonSchema());
    for (const type of usable.filter((t) => t !== types.approval && t !== types.waitForEvent))
      expect(schema).toContain(`"${type}"`);
    expect(schema).toContain('"const":"approval"');
    expect(schema).toContain('"const":"wait_for_event"');
  });

  test("a node type added to the registry reaches the FlowSpec with no edit here", () => {
    const extended = createRegistry({
      ...NODE_DEFINITIONS,
      "auto.action.send_sms": { ...addTag, type: "auto.action.send_sms", label: "Send SMS" },
    });
    expect(specTypes(extended).action).toContain("auto.action.send_sms");
    const spec = {
      name: "SMS",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [{ kind: "action", type: "auto.action.send_sms", params: { tag: "x" } }],
    };
    expect(flowSpecSchema(extended).safeParse(spec).success).toBe(true);
    expect(FlowSpec.safeParse(spec).success).toBe(false);
  });
});

describe("the FlowSpec schema", () => {
  test("refuses an unknown type with a sentence; the loose twin takes it", () => {
    const spec = {
      name: "x",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [{ kind: "action", type: "auto.action.teleport" }],
    };
    const parsed = FlowSpec.safeParse(spec);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("'auto.action.teleport' is not an action Tillflow knows");
    expect(LooseFlowSpec.safeParse(spec).success).toBe(true);
  });

  test("a condition or an approval ends its list", () => {
    const parsed = FlowSpec.safeParse({
      name: "x",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [
        { kind: "approval", params: {}, approved: [] },
        { kind: "action", type: "auto.action.add_tag", params: { tag: "a" } },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["steps", 1]);
    expect(parsed.error?.issues[0]?.message).toMatch(/^an approval ends its list/);
  });

  test("a wait for an event ends its list too, its branches received and timed_out", () => {
    const wait = { kind: "wait_for_event", params: { event: "order.fulfilled" } };
    const after = { kind: "action", type: "auto.action.add_tag", params: { tag: "a" } };
    const trigger = { type: "auto.trigger.order_paid" };
    const parsed = FlowSpec.safeParse({ name: "x", trigger, steps: [wait, after] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      "a wait_for_event ends its list: put the steps after it inside its `received` or `timed_out`",
    );
    expect(
      FlowSpec.safeParse({ name: "x", trigger, steps: [{ ...wait, received: [], timed_out: [after] }] })
        .success,
    ).toBe(true);
  });

  test("takes exactly the documented shape, nested", () => {
    const parsed = FlowSpec.safeParse({
      name: "Nested",
      trigger: { type: "auto.trigger.order_created", params: {} },
      steps: [
        {
          kind: "condition",
          type: "auto.condition.has_tag",
          params: { tag: "vip" },
          then: [{ kind: "wait", type: "auto.control.wait", params: { duration: 1, unit: "days" } }],
          else: [
            { kind: "approval", params: {}, timed_out: [{ kind: "action", type: "auto.action.add_note" }] },
          ],
        },
      ],
    });
    expect(parsed.success).toBe(true);
  });
});
