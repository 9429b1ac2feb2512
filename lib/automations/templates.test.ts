import { describe, expect, it } from "vitest";
import { validate } from "./graph/validate";
import { AUTOMATION_TEMPLATES, BLANK_TEMPLATE_ID, findTemplate } from "./templates";

/*
 * Each non-blank template is a straight column, e.g. the abandoned cart reminder:
 *
 *   [Cart abandoned] → [Wait 1 hour] → [status is abandoned] —true→ [Send email]
 */

const published = AUTOMATION_TEMPLATES.filter((template) => template.id !== BLANK_TEMPLATE_ID);

describe("automation templates", () => {
  it("offers Blank and the five starter flows, with unique ids", () => {
    expect(AUTOMATION_TEMPLATES.map((t) => t.id)).toEqual([
      "blank",
      "review-after-delivery",
      "win-back-60-days",
      "abandoned-cart",
      "escalate-unfulfilled",
      "tag-vip",
    ]);
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
