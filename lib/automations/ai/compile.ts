import { withPositions } from "@/lib/automations/editor/place";
import type { ReadyIssue } from "@/lib/automations/review/validate";
import type { Graph, GraphEdge, GraphNode } from "@/lib/automations/graph/schema";
import { registry as defaultRegistry, type Registry } from "@/lib/automations/nodes/registry";
import type { NodeCategory, NodeDefinition } from "@/lib/automations/nodes/types";
import { specTypes, type FlowSpec, type Step } from "./spec";

/**
 * A FlowSpec as a graph (pure): one node per step, ids made from the type (`add_tag_1`), edges
 * with the handle each step leaves by, and every node placed by the editor's own "Tidy up" layout
 * (`withPositions` → `autoLayout`, dagre). The result is not validated here; `build.ts` runs the
 * editor's `validate()` on it.
 *
 *   list:       a ──out──▶ b ──out──▶ c
 *   condition:  cond ──true──▶ then…      cond ──false──▶ else…
 *   approval:   ok ──approved──▶ …   ok ──rejected──▶ …   ok ──timed_out──▶ …
 *   event wait: w ──received──▶ …    w ──timed_out──▶ …
 *
 * What it had to decide on its own (a default filled in, a step of an unknown type left out)
 * comes back as `notes`; a step it left out is also a ready issue, since the flow is not what
 * was asked for.
 */

export interface Compiled {
  graph: Graph;
  /** Sentences: what compiling assumed or changed. */
  notes: string[];
  /** Steps that could not be drawn (a type the registry lacks), as ready issues. */
  issues: ReadyIssue[];
}

/** Where the next step connects from: a node and the handle it leaves by. */
interface Source {
  nodeId: string;
  handle: string;
}

type TypedKind = Exclude<Step["kind"], "approval" | "wait_for_event">;

const EXPECTED_CATEGORY: Record<TypedKind, NodeCategory> = {
  action: "action",
  wait: "wait",
  condition: "condition",
};

function isEmpty(value: unknown): boolean {
  if (value === "" || value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** The step id for a type: its last segment and a counter (`auto.action.add_tag` → `add_tag_1`). */
function idMaker() {
  const counts = new Map<string, number>();
  return (type: string): string => {
    const base = (type.split(".").pop() ?? "step").replace(/[^A-Za-z0-9_]/g, "_") || "step";
    const n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    return `${base}_${n}`;
  };
}

export function compileFlowSpec(spec: FlowSpec, registry: Registry = defaultRegistry): Compiled {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const notes: string[] = [];
  const issues: ReadyIssue[] = [];
  const nextId = idMaker();
  const types = specTypes(registry);

  /** Params as given, with the definition's defaults for the keys left out (noted). */
  function paramsFor(definition: NodeDefinition, given: Record<string, unknown> | undefined, id: string) {
    const defaults = definition.defaultParams() as Record<string, unknown>;
    const params: Record<string, unknown> = { ...(given ?? {}) };
    const filled: string[] = [];
    for (const [key, value] of Object.entries(defaults)) {
      if (Object.hasOwn(params, key)) continue;
      params[key] = value;
      if (!isEmpty(value)) filled.push(`${key} = ${JSON.stringify(value)}`);
    }
    if (filled.length > 0) notes.push(`${definition.label} (${id}): used the default ${filled.join(", ")}.`);
    return params;
  }

  function addNode(
    definition: NodeDefinition,
    given: Record<string, unknown> | undefined,
    from: Source | null,
  ) {
    const id = definition.category === "trigger" ? "trigger" : nextId(definition.type);
    nodes.push({ id, type: definition.type, params: paramsFor(definition, given, id) });
    if (from)
      edges.push({ id: `e${edges.length + 1}`, source: from.nodeId, sourceHandle: from.handle, target: id });
    return id;
  }

  /** The definition a step names, or null (noted as a ready issue) when it is not one merchants may use. */
  function definitionOf(kind: TypedKind, type: string): NodeDefinition | null {
    const definition = registry.get(type);
    const allowed = types[kind];
    if (definition && definition.category === EXPECTED_CATEGORY[kind] && allowed.includes(type))
      return definition;
    issues.push({
      message: `The ${kind} '${type}' is not one Tillflow knows, so it was left out; use one of ${allowed.join(", ")}.`,
    });
    return null;
  }

  function compileList(steps: readonly Step[], from: Source | null) {
    let source = from;
    for (const step of steps) {
      if (step.kind === "approval") {
        const definition = registry.get(types.approval)!;
        const id = addNode(definition, step.params, source);
        compileList(step.approved ?? [], { nodeId: id, handle: "approved" });
        compileList(step.rejected ?? [], { nodeId: id, handle: "rejected" });
        compileList(step.timed_out ?? [], { nodeId: id, handle: "timed_out" });
        return;
      }
      if (step.kind === "wait_for_event") {
        const definition = registry.get(types.waitForEvent)!;
        const id = addNode(definition, step.params, source);
        compileList(step.received ?? [], { nodeId: id, handle: "received" });
        compileList(step.timed_out ?? [], { nodeId: id, handle: "timed_out" });
        return;
      }
      const definition = definitionOf(step.kind, step.type);
      if (step.kind === "condition") {
        if (!definition) {
          // Without the condition there is no branch to take; its `then` is the likelier intent.
          compileList(step.then, source);
          if (step.else?.length) notes.push(`The steps under the unknown condition's else were left out.`);
          return;
        }
        const id = addNode(definition, step.params, source);
        compileList(step.then, { nodeId: id, handle: "true" });
        compileList(step.else ?? [], { nodeId: id, handle: "false" });
        return;
      }
      if (!definition) continue;
      const id = addNode(definition, step.params, source);
      source = { nodeId: id, handle: "out" };
    }
  }

  const trigger = registry.get(spec.trigger.type);
  if (trigger && trigger.category === "trigger" && types.trigger.includes(trigger.type)) {
    const id = addNode(trigger, spec.trigger.params, null);
    compileList(spec.steps, { nodeId: id, handle: "out" });
  } else {
    issues.push({
      message: `The trigger '${spec.trigger.type}' is not one Tillflow knows, so the flow has none; use one of ${types.trigger.join(", ")}.`,
    });
    // The steps are still drawn, unconnected to a trigger, so the merchant sees what was meant.
    compileList(spec.steps, null);
  }

  return { graph: withPositions({ nodes, edges }), notes, issues };
}
