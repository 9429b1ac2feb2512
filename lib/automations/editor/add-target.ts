import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import type { NodeLookup } from "@/lib/automations/nodes/catalog";
import { NODE_WIDTH } from "./node-size";

/**
 * The editor's add target: where the next palette pick goes and what it connects from — the
 * exit whose "+" was clicked, else the selected step's first free exit, else nowhere. Pure.
 */
export interface AddTarget {
  nodeId: string;
  handle: string;
}

/** A step's first exit with nothing connected yet (else its first exit); null when it has none. */
export function firstFreeExit(node: GraphNode, graph: Graph, lookup: NodeLookup): AddTarget | null {
  const outs = lookup.get(node.type)?.handles.out ?? [];
  const handle =
    outs.find((h) => !graph.edges.some((e) => e.source === node.id && e.sourceHandle === h)) ?? outs[0];
  return handle ? { nodeId: node.id, handle } : null;
}

/** The chosen exit, else the selected step's first free exit, else null. */
export function nextAddTarget(
  chosen: AddTarget | null,
  selected: GraphNode | undefined,
  graph: Graph,
  lookup: NodeLookup,
): AddTarget | null {
  return chosen ?? (selected ? firstFreeExit(selected, graph, lookup) : null);
}

/** What the palette says of the target: "after 'Wait 2 days'", with the exit when there are several. */
export function addTargetLabel(
  target: AddTarget | null,
  graph: Graph,
  lookup: NodeLookup,
  labelOf: (id: string) => string,
): string | null {
  const node = target && graph.nodes.find((n) => n.id === target.nodeId);
  if (!target || !node) return null;
  const exits = lookup.get(node.type)?.handles.out.length ?? 0;
  return `after '${labelOf(target.nodeId)}'${exits > 1 ? ` (${target.handle})` : ""}`;
}

/**
 * How far right of its source a new step goes: under its exit, so branches do not stack — a
 * condition's true left and false right, an approval's approved, rejected, timed out in a row.
 */
export function exitOffset(type: string, handle: string | undefined, lookup: NodeLookup): number {
  const exits = lookup.get(type)?.handles.out ?? [];
  const index = handle ? exits.indexOf(handle) : -1;
  if (exits.length < 2 || index < 0) return 0;
  return (index - (exits.length - 1) / 2) * (NODE_WIDTH + 80);
}
