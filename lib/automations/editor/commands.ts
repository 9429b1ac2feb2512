import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import { outHandles, type NodeInfo, type NodeLookup } from "@/lib/automations/nodes/catalog";
import { exitOffset, type AddTarget } from "./add-target";
import {
  fromFlow,
  newEdgeId,
  newNodeId,
  removeSteps,
  type PlaceSteps,
  type StepEdge,
  type StepNode,
} from "./flow";
import { NODE_HEIGHT } from "./node-size";

/**
 * The flow editor's commands as pure functions over a graph: add a step, connect, disconnect,
 * delete the selection, copy and paste, tidy up. Each returns the next graph (or null when there
 * is nothing to do); the editor's store (`components/automations/editor/state/store.ts`) puts it on the canvas and in the history.
 */

type Position = { x: number; y: number };

/** Space between a step and the one added under it. */
const GAP = 80;

/** Where a new step goes: a trigger above everything, else under its source's exit, else at the bottom. */
function placeFor(
  graph: Graph,
  category: NodeInfo["category"],
  from: AddTarget | null,
  lookup: NodeLookup,
): Position {
  if (category === "trigger") {
    return { x: 0, y: Math.min(0, ...graph.nodes.map((n) => n.position?.y ?? 0)) - NODE_HEIGHT - GAP };
  }
  const source = from ? graph.nodes.find((n) => n.id === from.nodeId) : undefined;
  if (source?.position) {
    return {
      x: source.position.x + exitOffset(source.type, from?.handle, lookup, source.params),
      y: source.position.y + NODE_HEIGHT + GAP,
    };
  }
  const lowest = graph.nodes.reduce((y, n) => Math.max(y, n.position?.y ?? 0), 0);
  return { x: 0, y: graph.nodes.length ? lowest + NODE_HEIGHT + GAP : 0 };
}

type StepDefinition = Pick<NodeInfo, "type" | "category" | "handles">;

/**
 * A new step of `definition`'s type with `params`. Triggers stand alone; other steps go after
 * `target` and connect from it (when they have an entrance). A target with a connection
 * (`edgeId`) inserts the step on it (`insertStep`) when the step has an entrance and an exit.
 */
export function addStep(
  graph: Graph,
  definition: StepDefinition,
  params: Record<string, unknown>,
  target: AddTarget | null,
  lookup: NodeLookup,
): { graph: Graph; id: string; position: Position } {
  if (target?.edgeId && definition.category !== "trigger") {
    const inserted = insertStep(graph, definition, params, target.edgeId, lookup);
    if (inserted) return inserted;
  }
  const id = newNodeId(
    definition.type,
    graph.nodes.map((n) => n.id),
  );
  const from = definition.category === "trigger" ? null : target;
  const position = placeFor(graph, definition.category, from, lookup);
  const node: GraphNode = { id, type: definition.type, params, position };
  const edges =
    from && definition.handles.in
      ? [
          ...graph.edges,
          {
            id: newEdgeId(
              from.nodeId,
              from.handle,
              id,
              graph.edges.map((e) => e.id),
            ),
            source: from.nodeId,
            sourceHandle: from.handle,
            target: id,
          },
        ]
      : graph.edges;
  return { graph: { nodes: [...graph.nodes, node], edges }, id, position };
}

/**
 * A new step put on the connection `edgeId` (source ─exit─▶ target): the connection is rewired
 * through it, source ─same exit─▶ new ─its first exit─▶ target, so a condition's "True" line
 * stays "True". The new step takes the target's place and every step at or below that row moves
 * down by one row, so nothing overlaps; when the target is not below the source (a line going
 * up or sideways), the new step goes under the source's exit instead. Null when the connection
 * is gone or the step cannot sit in a line (no entrance or no exit): then it is added as a branch.
 *
 * ```
 * t ──▶ a          t ──▶ new ──▶ a
 * ```
 */
export function insertStep(
  graph: Graph,
  definition: StepDefinition,
  params: Record<string, unknown>,
  edgeId: string,
  lookup: NodeLookup,
): { graph: Graph; id: string; position: Position } | null {
  const edge = graph.edges.find((e) => e.id === edgeId);
  const exit = outHandles(definition, params)[0];
  if (!edge || !definition.handles.in || !exit) return null;
  const source = graph.nodes.find((n) => n.id === edge.source);
  const target = graph.nodes.find((n) => n.id === edge.target);
  if (!source || !target) return null;
  const handle = edge.sourceHandle ?? "out";
  const id = newNodeId(
    definition.type,
    graph.nodes.map((n) => n.id),
  );
  const from = source.position ?? { x: 0, y: 0 };
  const position: Position =
    target.position && target.position.y >= from.y + NODE_HEIGHT
      ? { ...target.position }
      : { x: from.x + exitOffset(source.type, handle, lookup, source.params), y: from.y + NODE_HEIGHT + GAP };
  // Every step reaching into the new step's row or below moves down together, the topmost of
  // them to one gap under the new step: they keep their shape and clear it.
  const moving = graph.nodes.filter((n) => n.position && n.position.y + NODE_HEIGHT > position.y);
  const top = Math.min(...moving.map((n) => n.position!.y));
  const shift = moving.length > 0 ? position.y + NODE_HEIGHT + GAP - top : 0;
  const nodes: GraphNode[] = graph.nodes.map((n) =>
    n.position && n.position.y + NODE_HEIGHT > position.y
      ? { ...n, position: { x: n.position.x, y: n.position.y + shift } }
      : n,
  );
  const taken = graph.edges.filter((e) => e.id !== edge.id).map((e) => e.id);
  const into = {
    id: newEdgeId(source.id, handle, id, taken),
    source: source.id,
    sourceHandle: handle,
    target: id,
  };
  const onward = {
    id: newEdgeId(id, exit, target.id, [...taken, into.id]),
    source: id,
    sourceHandle: exit,
    target: target.id,
  };
  return {
    graph: {
      nodes: [...nodes, { id, type: definition.type, params, position }],
      // In the old connection's place: the order of a step's lines is kept.
      edges: graph.edges.flatMap((e) => (e.id === edge.id ? [into, onward] : [e])),
    },
    id,
    position,
  };
}

/** `source`'s exit `sourceHandle` connected to `target`; null for a loop onto itself or a connection it has. */
export function connect(graph: Graph, source: string, sourceHandle: string, target: string): Graph | null {
  if (source === target) return null;
  if (
    graph.edges.some((e) => e.source === source && e.sourceHandle === sourceHandle && e.target === target)
  ) {
    return null;
  }
  const id = newEdgeId(
    source,
    sourceHandle,
    target,
    graph.edges.map((e) => e.id),
  );
  return { nodes: graph.nodes, edges: [...graph.edges, { id, source, sourceHandle, target }] };
}

/** The graph without the connection `edgeId`. */
export function disconnect(graph: Graph, edgeId: string): Graph {
  return { nodes: graph.nodes, edges: graph.edges.filter((e) => e.id !== edgeId) };
}

/** The graph without the selected steps (bridged, see `removeSteps`) and connections; null when none is selected. */
export function deleteSelection(
  graph: Graph,
  nodeIds: readonly string[],
  edgeIds: readonly string[],
): Graph | null {
  const nodes = new Set(nodeIds);
  const edges = new Set(edgeIds);
  if (nodes.size === 0 && edges.size === 0) return null;
  return removeSteps(graph, nodes, edges);
}

/** What Copy keeps: the selected steps and the connections between them; null when none is selected. */
export function copySteps(graph: Graph, nodeIds: readonly string[]): Graph | null {
  const ids = new Set(nodeIds);
  if (ids.size === 0) return null;
  return {
    nodes: graph.nodes.filter((n) => ids.has(n.id)),
    edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
  };
}

/**
 * `copied` added to the graph under new ids, 40 px down and right of where it was copied from.
 * `pasted` is what was added: pasting it again puts the next copy below this one.
 */
export function pasteSteps(graph: Graph, copied: Graph): { graph: Graph; pasted: Graph; ids: string[] } {
  const taken = graph.nodes.map((n) => n.id);
  const renamed = new Map<string, string>();
  for (const node of copied.nodes)
    renamed.set(node.id, newNodeId(node.type, [...taken, ...renamed.values()]));
  const idOf = (old: string) => renamed.get(old) ?? old;
  const nodes = copied.nodes.map((n) => ({
    ...n,
    id: idOf(n.id),
    position: { x: (n.position?.x ?? 0) + 40, y: (n.position?.y ?? 0) + 40 },
  }));
  const edgeIds = graph.edges.map((e) => e.id);
  const edges = copied.edges.map((e) => {
    const source = idOf(e.source);
    const target = idOf(e.target);
    const id = newEdgeId(source, e.sourceHandle, target, edgeIds);
    edgeIds.push(id);
    return { ...e, id, source, target };
  });
  return {
    graph: { nodes: [...graph.nodes, ...nodes], edges: [...graph.edges, ...edges] },
    pasted: { nodes, edges },
    ids: [...renamed.values()],
  };
}

/** The canvas laid out afresh by `layout` (`autoLayout`, which brings dagre along). */
export function tidy(nodes: StepNode[], edges: StepEdge[], layout: PlaceSteps): Graph {
  return fromFlow(layout(nodes, edges), edges);
}
