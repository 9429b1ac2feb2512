import { describe, expect, it } from "vitest";
import { validate } from "@/lib/automations/review/validate";
import { AUTOMATION_TEMPLATES, BLANK_TEMPLATE_ID, findTemplate } from "./templates";

/*
 * Each non-blank template is a column, e.g. the abandoned cart reminder:
 *
 *   [Cart abandoned] → [Wait 1 hour] → [status is abandoned] —true→ [Send email]
 *
 * and the review hold splits at its approval, its two branches side by side in the last row:
 *
 *   [Order paid] → [total > 1000] —true→ [Approval 72 h] —approved→ [Add tag reviewed]
 *                                                         —rejected→ [Add note]
 */

const published = AUTOMATION_TEMPLATES.filter((template) => template.id !== BLANK_TEMPLATE_ID);

describe("automation templates", () => {
  it("offers Blank and the eight starter flows, with unique ids", () => {
    expect(AUTOMATION_TEMPLATES.map((t) => t.id)).toEqual([
      "blank",
      "review-after-delivery",
      "win-back-60-days",
      "abandoned-cart",
      "escalate-unfulfilled",
      "tag-vip",
      "hold-big-orders-for-review",
      "sort-refunds-by-reason",
      "remind-unshipped-paid-orders",
    ]);
  });

  it("the unshipped reminder waits 2 days for the same order's fulfilment and emails only when it times out", () => {
    const { graph } = findTemplate("remind-unshipped-paid-orders")!;
    expect(graph.nodes.find((n) => n.id === "fulfilled")).toMatchObject({
      type: "auto.control.wait_for_event",
      params: { event: "order.fulfilled", match: { kind: "same_record" }, timeoutHours: 48 },
    });
    expect(graph.edges.filter((e) => e.source === "fulfilled")).toEqual([
      expect.objectContaining({ sourceHandle: "timed_out", target: "email" }),
    ]);
  });

  it("the review hold sends approved orders to a tag and rejected ones to a note, and ends on a timeout", () => {
    const { graph } = findTemplate("hold-big-orders-for-review")!;
    const from = (handle: string) =>
      graph.edges.filter((e) => e.source === "review" && e.sourceHandle === handle).map((e) => e.target);
    expect(graph.nodes.find((n) => n.id === "review")?.params).toEqual({
      title: "Review order {entity.number}",
      timeoutHours: 72,
      approverRole: "editor",
    });
    expect(from("approved")).toEqual(["tag"]);
    expect(from("rejected")).toEqual(["note"]);
    expect(from("timed_out")).toEqual([]);
    expect(graph.edges.find((e) => e.target === "review")).toMatchObject({
      source: "big_order",
      sourceHandle: "true",
    });
  });

  it.each(published.map((t) => [t.name, t] as const))("%s is ready to publish", (_name, template) => {
    expect(validate(template.graph)).toEqual([]);
  });

  it.each(published.map((t) => [t.name, t] as const))(
    "%s is laid out top to bottom with every node positioned",
    (_name, template) => {
      const ys = template.graph.nodes.map((n) => n.position?.y);
      expect(ys.every((y) => typeof y === "number")).toBe(true);
      expect([...(ys as number[])].sort((a, b) => a - b)).toEqual(ys);
      expect(template.outline).toHaveLength(template.graph.nodes.length);
    },
  );

  it("Blank is empty, so it has exactly the issue of a flow without a trigger", () => {
    const blank = findTemplate(BLANK_TEMPLATE_ID);
    expect(blank?.graph).toEqual({ nodes: [], edges: [] });
    expect(validate(blank?.graph)).toEqual([{ message: "Add a trigger: a flow starts with one." }]);
  });

  it("finds nothing for an unknown id", () => {
    expect(findTemplate("nope")).toBeUndefined();
  });
});
