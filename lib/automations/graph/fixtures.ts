import { z } from "zod";
import { createRegistry, NODE_DEFINITIONS } from "@/lib/automations/nodes/registry";
import type { NodeDefinition } from "@/lib/automations/nodes/types";
import type { Graph, GraphEdge, GraphNode } from "./schema";

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

const testWaitParams = z.strictObject({ minutes: z.number().int().min(1).default(1) });

/**
 * A minimal node of the `wait` category, for tests of how the engine treats waits before the
 * real timing nodes exist: no effect, no branch, no domain.
 */
export const testWait = {
  type: "test.wait",
  category: "wait",
  label: "Wait",
  description: "Test-only wait.",
  params: testWaitParams,
  defaultParams: () => ({ minutes: 1 }),
  handles: { in: true, out: ["out"] },
  summarise: ({ minutes }) => `Wait ${minutes} minute${minutes === 1 ? "" : "s"}`,
} satisfies NodeDefinition<typeof testWaitParams>;

/** The app's registry plus `test.wait`. */
export const registryWithWait = createRegistry({ ...NODE_DEFINITIONS, "test.wait": testWait });
