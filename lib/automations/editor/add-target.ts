import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import { exitLabel, outHandles, type NodeLookup } from "@/lib/automations/nodes/catalog";
import { NODE_WIDTH } from "./node-size";

/**
 * The editor's add target: where the next palette pick goes and what it connects from — the
 * exit whose "+" was clicked, else the selected step's first free exit, else nowhere. Pure.
 * With `edgeId` the new step is **inserted** on that connection (which leaves `nodeId`'s exit
 * `handle`) rather than hung beside it as a parallel branch.
 */
export interface AddTarget {
  nodeId: string;
  handle: string;
  edgeId?: string;
}

/**
 * What the "+" under an exit aims at: a connected exit inserts on its (first) connection, so
 * "+" on a line puts the step on that line; a free exit adds after it.
 */
export function exitTarget(nodeId: string, handle: string, graph: Graph): AddTarget {
  const edge = graph.edges.find((e) => e.source === nodeId && (e.sourceHandle ?? "out") === handle);
  return edge ? { nodeId, handle, edgeId: edge.id } : { nodeId, handle };
}

/** The same exit as a parallel branch: a new line beside the ones it has. */
export function asBranch(target: AddTarget): AddTarget {
  return { nodeId: target.nodeId, handle: target.handle };
}

/** A step's first exit with nothing connected yet (else its first exit); null when it has none. */
export function firstFreeExit(node: GraphNode, graph: Graph, lookup: NodeLookup): AddTarget | null {
  const outs = outHandles(lookup.get(node.type), node.params);
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

/**
 * What the palette says of the target: "after 'Wait 2 days'", with the exit when there are
 * several; "between 'Order paid' and 'Add tag'" when it inserts on a connection.
 */
export function addTargetLabel(
  target: AddTarget | null,
  graph: Graph,
  lookup: NodeLookup,
  labelOf: (id: string) => string,
): string | null {
  const node = target && graph.nodes.find((n) => n.id === target.nodeId);
  if (!target || !node) return null;
  const info = lookup.get(node.type);
  const exits = outHandles(info, node.params).length;
  const source = `'${labelOf(target.nodeId)}'${exits > 1 ? ` (${exitLabel(info, node.params, target.handle)})` : ""}`;
  const edge = target.edgeId ? graph.edges.find((e) => e.id === target.edgeId) : undefined;
  return edge ? `between ${source} and '${labelOf(edge.target)}'` : `after ${source}`;
}

/**
 * How far right of its source a new step goes: under its exit, so branches do not stack — a
 * condition's true left and false right, an approval's approved, rejected, timed out in a row.
 */
export function exitOffset(
  type: string,
  handle: string | undefined,
  lookup: NodeLookup,
  params?: unknown,
): number {
  const exits = outHandles(lookup.get(type), params);
  const index = handle ? exits.indexOf(handle) : -1;
  if (exits.length < 2 || index < 0) return 0;
  return (index - (exits.length - 1) / 2) * (NODE_WIDTH + 80);
}
