import { describe, expect, test } from "vitest";
import { validate } from "@/lib/automations/review/validate";
import { compileFlowSpec } from "./compile";
import type { FlowSpec } from "./spec";

/** Edges as `source -handle-> target`, easy to compare with the drawing above each test. */
function wires(spec: FlowSpec) {
  const { graph } = compileFlowSpec(spec);
  return graph.edges.map((e) => `${e.source} -${e.sourceHandle}-> ${e.target}`);
}

describe("compileFlowSpec", () => {
  //  order_paid ──▶ add_tag(paid) ──▶ Wait 2 days ──▶ send_email
  test("a list becomes a chain on `out`, every node placed, and it validates", () => {
    const spec: FlowSpec = {
      name: "Review request",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [
        { kind: "action", type: "auto.action.add_tag", params: { tag: "paid" } },
        { kind: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
        {
          kind: "action",
          type: "auto.action.send_email",
          params: { to: "{entity.email}", subject: "How was it?", body: "Tell us." },
        },
      ],
    };
    const { graph } = compileFlowSpec(spec);
    expect(graph.nodes.map((n) => `${n.id}:${n.type}`)).toEqual([
      "trigger:auto.trigger.order_paid",
      "add_tag_1:auto.action.add_tag",
      "wait_1:auto.control.wait",
      "send_email_1:auto.action.send_email",
    ]);
    expect(wires(spec)).toEqual([
      "trigger -out-> add_tag_1",
      "add_tag_1 -out-> wait_1",
      "wait_1 -out-> send_email_1",
    ]);
    // Laid out top to bottom by the editor's own dagre layout.
    const ys = graph.nodes.map((n) => n.position!.y);
    expect(ys).toEqual([...ys].sort((x, y) => x - y));
    expect(new Set(ys).size).toBe(4);
    expect(validate(graph)).toEqual([]);
  });

  //  order_created ──▶ has_tag(vip) ──true──▶ field(total > 100) ──true──▶ add_tag(big-vip)
  //                         │                        └──false──▶ add_note
  //                         └──false──▶ Wait 1 hour ──▶ approval ──approved──▶ add_tag(ok)
  //                                                       ├──rejected──▶ create_task
  //                                                       └──timed_out──▶ Wait 30 days ──▶ remove_tag
  test("nested conditions, an approval and waits: branches continue the flow on their handles", () => {
    const spec: FlowSpec = {
      name: "Nested",
      trigger: { type: "auto.trigger.order_created" },
      steps: [
        {
          kind: "condition",
          type: "auto.condition.has_tag",
          params: { tag: "vip" },
          then: [
            {
              kind: "condition",
              type: "auto.condition.field",
              params: { path: "total", operator: "gt", value: 100 },
              then: [{ kind: "action", type: "auto.action.add_tag", params: { tag: "big-vip" } }],
              else: [{ kind: "action", type: "auto.action.add_note", params: { body: "small" } }],
            },
          ],
          else: [
            { kind: "wait", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
            {
              kind: "approval",
              params: { title: "Check {entity.number}", timeoutHours: 24, approverRole: "admin" },
              approved: [{ kind: "action", type: "auto.action.add_tag", params: { tag: "ok" } }],
              rejected: [{ kind: "action", type: "auto.action.create_task", params: { title: "Call" } }],
              timed_out: [
                { kind: "wait", type: "auto.control.wait", params: { duration: 30, unit: "days" } },
                { kind: "action", type: "auto.action.remove_tag", params: { tag: "vip" } },
              ],
            },
          ],
        },
      ],
    };
    expect(wires(spec)).toEqual([
      "trigger -out-> has_tag_1",
      "has_tag_1 -true-> field_1",
      "field_1 -true-> add_tag_1",
      "field_1 -false-> add_note_1",
      "has_tag_1 -false-> wait_1",
      "wait_1 -out-> approval_1",
      "approval_1 -approved-> add_tag_2",
      "approval_1 -rejected-> create_task_1",
      "approval_1 -timed_out-> wait_2",
      "wait_2 -out-> remove_tag_1",
    ]);
    const { graph, issues } = compileFlowSpec(spec);
    expect(issues).toEqual([]);
    expect(graph.nodes.find((n) => n.id === "approval_1")).toMatchObject({
      type: "auto.control.approval",
      params: { title: "Check {entity.number}", timeoutHours: 24, approverRole: "admin" },
    });
    expect(graph.nodes.every((n) => n.position)).toBe(true);
    expect(validate(graph)).toEqual([]);
  });

  //  order_paid ──▶ Wait 40 days ──▶ add_tag(late)
  test("a 40-day wait compiles, and validation gives the 30-day ready issue", () => {
    const { graph } = compileFlowSpec({
      name: "Too long",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [
        { kind: "wait", type: "auto.control.wait", params: { duration: 40, unit: "days" } },
        { kind: "action", type: "auto.action.add_tag", params: { tag: "late" } },
      ],
    });
    expect(validate(graph)).toEqual([{ nodeId: "wait_1", message: "A wait can be at most 30 days." }]);
  });

  //  order_paid ──▶ approval (defaults) ──approved──▶ add_tag(tag missing)
  test("params left out take the registry's defaults, and the notes say which", () => {
    const { graph, notes } = compileFlowSpec({
      name: "Defaults",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [{ kind: "approval", params: {}, approved: [{ kind: "action", type: "auto.action.add_tag" }] }],
    });
    expect(graph.nodes[1]!.params).toEqual({
      title: "Review this",
      timeoutHours: 72,
      approverRole: "editor",
      allowSelfApproval: false,
    });
    expect(notes).toEqual([
      'Approval (approval_1): used the default title = "Review this", timeoutHours = 72, approverRole = "editor", allowSelfApproval = false.',
    ]);
  });

  //  order_paid ──▶ wait for order.fulfilled (3 days) ──received──▶ add_tag(shipped)
  //                                                  └──timed_out──▶ send_email
  test("a wait for an event branches on received and timed_out, and validates", () => {
    const spec: FlowSpec = {
      name: "Remind unshipped",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [
        {
          kind: "wait_for_event",
          params: { event: "order.fulfilled", match: { kind: "same_record" }, timeoutHours: 72 },
          received: [{ kind: "action", type: "auto.action.add_tag", params: { tag: "shipped" } }],
          timed_out: [
            {
              kind: "action",
              type: "auto.action.send_email",
              params: { to: "{entity.email}", subject: "Still on its way", body: "Sorry for the wait." },
            },
          ],
        },
      ],
    };
    expect(wires(spec)).toEqual([
      "trigger -out-> wait_for_event_1",
      "wait_for_event_1 -received-> add_tag_1",
      "wait_for_event_1 -timed_out-> send_email_1",
    ]);
    const { graph } = compileFlowSpec(spec);
    expect(graph.nodes[1]).toMatchObject({ type: "auto.control.wait_for_event" });
    expect(validate(graph)).toEqual([]);
  });

  //  order_paid ──▶ [teleport: left out] ──▶ add_tag(x)
  test("a step of a type the registry lacks is never drawn: left out, said as a ready issue", () => {
    const { graph, issues } = compileFlowSpec({
      name: "Unknown",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [
        { kind: "action", type: "auto.action.teleport" },
        { kind: "action", type: "auto.action.add_tag", params: { tag: "x" } },
        { kind: "action", type: "auto.action.purge_run_history" },
      ],
    });
    expect(graph.nodes.map((n) => n.type)).toEqual(["auto.trigger.order_paid", "auto.action.add_tag"]);
    expect(graph.edges.map((e) => `${e.source}->${e.target}`)).toEqual(["trigger->add_tag_1"]);
    expect(issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^The action 'auto\.action\.teleport' is not one Tillflow knows/),
      expect.stringMatching(/^The action 'auto\.action\.purge_run_history' is not one Tillflow knows/),
    ]);
  });
});
