import { z } from "zod";
import { registry } from "./registry";

/** The registry as JSON for API clients and the AI builder: params as JSON Schema. */
export function describeNodeTypes() {
  return registry.all().map((d) => ({
    type: d.type,
    category: d.category,
    label: d.label,
    description: d.description,
    handles: d.handles,
    entityDomain: d.entityDomain ?? null,
    event: d.event ?? null,
    templated: d.templated ?? [],
    defaultParams: d.defaultParams(),
    paramsSchema: z.toJSONSchema(d.params, { unrepresentable: "any" }),
  }));
}
