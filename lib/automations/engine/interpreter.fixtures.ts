import type { WaitUnit } from "@/lib/automations/nodes/timing/wait";
import type { WaitUntilParams } from "@/lib/automations/nodes/timing/wait-until";
import type { Graph, GraphEdge, GraphNode } from "@/lib/automations/graph/schema";

/**
 * Tiny builders for graphs in tests (engine tests too): `graph([node(…)], [edge(…)])`. Edge ids
 * are derived from their ends, so a test only spells out what it is about.
 */

export function node(id: string, type: string, params: Record<string, unknown> = {}): GraphNode {
  return { id, type, params };
}

export function edge(source: string, target: string, sourceHandle = "out"): GraphEdge {
  return { id: `e_${source}_${sourceHandle}_${target}`, source, sourceHandle, target };
}

export function graph(nodes: GraphNode[], edges: GraphEdge[] = []): Graph {
  return { nodes, edges };
}

/** An `auto.control.wait` node: `waitNode("w", 2, "days")`. */
export function waitNode(id: string, duration = 1, unit: WaitUnit = "hours"): GraphNode {
  return node(id, "auto.control.wait", { duration, unit });
}

/** An `auto.control.wait_until` node, at 09:00 UTC on any day unless told otherwise. */
export function waitUntilNode(id: string, params: Partial<WaitUntilParams> = {}): GraphNode {
  return node(id, "auto.control.wait_until", { time: "09:00", timezone: "UTC", ...params });
}
