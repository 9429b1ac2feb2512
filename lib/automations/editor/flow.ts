import type { Edge, Node } from "@xyflow/react";
import type { Graph, GraphEdge, GraphNode } from "@/lib/automations/graph/schema";
import type { NodeLookup } from "@/lib/automations/nodes/catalog";

/**
 * Conversions between a stored graph and React Flow's nodes and edges. Pure and browser-safe:
 * the canvas holds React Flow state while a merchant edits, and saving turns it back into a graph.
 *
 * - A node's React Flow `type` is its registry category (`trigger`, `condition`, `action`,
 *   `wait`, or `unknown` for a type this build does not know), so the canvas needs one component
 *   per category; the node type itself (`auto.action.add_tag`) and its params ride in `data`.
 * - An edge keeps the graph edge's `sourceHandle` (`out`, `true`, `false`…); every target handle
 *   is `in`.
 */

export interface StepNodeData extends Record<string, unknown> {
  type: string;
  params: Record<string, unknown>;
}
/** React Flow node `type` = the registry category. */
export type StepNodeKind = "trigger" | "condition" | "action" | "wait" | "unknown";
export type StepNode = Node<StepNodeData, StepNodeKind>;
export type StepEdge = Edge;

/** The id regex of `graph/schema.ts`, and its length limit. */
const ID_CHARS = /[^A-Za-z0-9_-]+/g;
const MAX_ID = 100;

/** A node type's React Flow kind, looked up in the registry or the browser's catalog. */
export function nodeKind(type: string, nodes: NodeLookup): StepNodeKind {
  return nodes.get(type)?.category ?? "unknown";
}

function toStepNode(node: GraphNode, nodes: NodeLookup): StepNode {
  return {
    id: node.id,
    type: nodeKind(node.type, nodes),
    position: node.position ? { x: node.position.x, y: node.position.y } : { x: 0, y: 0 },
    data: { type: node.type, params: node.params },
  };
}

function toStepEdge(edge: GraphEdge): StepEdge {
  return {
    id: edge.id,
    source: edge.source,
    sourceHandle: edge.sourceHandle,
    target: edge.target,
    targetHandle: "in",
  };
}

/** Places every node of a flow (`autoLayout` in `layout.ts`, which brings dagre along). */
export type PlaceSteps = (nodes: StepNode[], edges: StepEdge[]) => StepNode[];

/**
 * A graph as React Flow nodes and edges. Nodes without a stored position are placed by `layout`
 * (pass `autoLayout`): all of them when none has one, otherwise shifted so the laid-out flow
 * lines up with the steps that already have a place (the mean offset between the two). Without
 * `layout` they sit at 0,0: the browser gets graphs already placed on the server
 * (`withPositions`), so dagre stays out of the editor's first load.
 */
export function toFlow(
  graph: Graph,
  lookup: NodeLookup,
  layout?: PlaceSteps,
): { nodes: StepNode[]; edges: StepEdge[] } {
  const nodes = graph.nodes.map((node) => toStepNode(node, lookup));
  const edges = graph.edges.map(toStepEdge);
  const missing = graph.nodes.filter((node) => !node.position);
  if (missing.length === 0 || !layout) return { nodes, edges };

  const laidOut = new Map(layout(nodes, edges).map((node) => [node.id, node.position]));
  const placed = graph.nodes.filter((node) => node.position);
  let dx = 0;
  let dy = 0;
  for (const node of placed) {
    const auto = laidOut.get(node.id);
    if (!auto || !node.position) continue;
    dx += node.position.x - auto.x;
    dy += node.position.y - auto.y;
  }
  if (placed.length > 0) {
    dx = Math.round(dx / placed.length);
    dy = Math.round(dy / placed.length);
  }
  const without = new Set(missing.map((node) => node.id));
  return {
    nodes: nodes.map((node) => {
      const auto = laidOut.get(node.id);
      return without.has(node.id) && auto ? { ...node, position: { x: auto.x + dx, y: auto.y + dy } } : node;
    }),
    edges,
  };
}

/**
 * React Flow state back into a graph: ids, types and params as they are, positions rounded to
 * whole pixels, everything React Flow adds (selection, measurements, handles' `in`) dropped. An
 * edge without a source handle leaves by `out`.
 */
export function fromFlow(nodes: StepNode[], edges: StepEdge[]): Graph {
  return {
    nodes: nodes.map((node) => ({
      id: node.id,
      type: node.data.type,
      params: node.data.params,
      position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
    })),
    edges: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      sourceHandle: edge.sourceHandle ?? "out",
      target: edge.target,
    })),
  };
}

/** `text` made fit for an id: only letters, digits, dashes and underscores, never empty. */
function slug(text: string, fallback: string): string {
  const cleaned = text.replace(ID_CHARS, "_").replace(/^_+|_+$/g, "");
  return cleaned || fallback;
}

/** `base`, or `base_2`, `base_3`… whichever is free, always within the id length limit. */
function firstFree(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const stem = base.slice(0, MAX_ID);
  if (!used.has(stem)) return stem;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${stem.slice(0, MAX_ID - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** A readable id for a new node of `type`: `add_tag`, then `add_tag_2`… (`auto.action.add_tag`). */
export function newNodeId(type: string, taken: Iterable<string>): string {
  const last = type.split(".").pop() ?? type;
  return firstFree(slug(last, "step"), taken);
}

/** A readable id for a new connection: `check-true-add_tag`, unique among `taken`. */
export function newEdgeId(
  source: string,
  sourceHandle: string,
  target: string,
  taken: Iterable<string>,
): string {
  return firstFree(slug(`${source}-${slug(sourceHandle, "out")}-${target}`, "edge"), taken);
}

/**
 * The graph without the given steps and connections. A deleted step in the middle of a line is
 * bridged, as in the best flow editors: each connection into it now goes to where it led, so
 * `t → wait → tag` less `wait` is `t → tag`, not two pieces. A step whose exits lead to different
 * places (a condition's yes and no) is not bridged: which branch should take its place is the
 * merchant's call. Steps deleted together bridge through each other.
 */
export function removeSteps(graph: Graph, nodeIds: Iterable<string>, edgeIds: Iterable<string> = []): Graph {
  const doomed = new Set(nodeIds);
  let edges = graph.edges.filter((e) => !new Set(edgeIds).has(e.id));
  for (const id of doomed) {
    const incoming = edges.filter((e) => e.target === id && e.source !== id);
    const outgoing = edges.filter((e) => e.source === id && e.target !== id);
    const exits = new Set(outgoing.map((e) => e.sourceHandle));
    edges = edges.filter((e) => e.source !== id && e.target !== id);
    if (exits.size !== 1) continue;
    const taken = edges.map((e) => e.id);
    for (const into of incoming) {
      for (const out of outgoing) {
        const exists = edges.some(
          (e) => e.source === into.source && e.sourceHandle === into.sourceHandle && e.target === out.target,
        );
        if (exists) continue;
        const bridge = {
          id: newEdgeId(into.source, into.sourceHandle, out.target, taken),
          source: into.source,
          sourceHandle: into.sourceHandle,
          target: out.target,
        };
        taken.push(bridge.id);
        edges.push(bridge);
      }
    }
  }
  return { nodes: graph.nodes.filter((n) => !doomed.has(n.id)), edges };
}
