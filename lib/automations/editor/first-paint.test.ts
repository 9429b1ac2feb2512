import { describe, expect, test } from "vitest";
import type { Graph } from "@/lib/automations/graph/schema";
import { validate } from "@/lib/automations/review/validate";
import { catalogOf, effectiveDomainIn } from "@/lib/automations/nodes/catalog";
import { effectiveDomain, flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";
import { editorFirstPaint } from "./first-paint";

const draft: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" }, position: { x: 0, y: 180 } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "" }, position: { x: 0, y: 360 } },
  ],
  edges: [
    { id: "e1", source: "t", sourceHandle: "out", target: "w" },
    { id: "e2", source: "w", sourceHandle: "out", target: "tag" },
  ],
};

describe("editorFirstPaint", () => {
  test("says what the browser would work out with the registry", () => {
    const paint = editorFirstPaint({ version: 1, draftGraph: draft, activeGraph: draft });
    expect(paint.summaries).toEqual(
      Object.fromEntries(draft.nodes.map((n) => [n.id, summariseNode(n, { domain: flowDomain(draft) })])),
    );
    expect(paint.issues).toEqual(validate(draft));
    expect(paint.issues.length).toBeGreaterThan(0);
    expect(paint.stepsChanged).toBe(false);
    expect(editorFirstPaint({ version: 0, draftGraph: draft, activeGraph: null }).stepsChanged).toBe(true);
  });

  test("its catalog is plain data with every node type, in the registry's order", () => {
    const { nodes } = editorFirstPaint({ version: 0, draftGraph: draft, activeGraph: null });
    expect(JSON.parse(JSON.stringify(nodes))).toEqual(nodes);
    expect(nodes.map((n) => n.type)).toEqual(registry.all().map((d) => d.type));
    const catalog = catalogOf(nodes);
    for (const definition of registry.all()) {
      const info = catalog.get(definition.type);
      expect(info?.label).toBe(definition.label);
      expect(info?.handles).toEqual(definition.handles);
      expect(info?.platform).toBe(definition.platform);
      const node = { type: definition.type, params: { audience: { kind: "all" } } };
      expect(effectiveDomainIn(catalog, node)).toBe(effectiveDomain(node));
    }
  });
});
