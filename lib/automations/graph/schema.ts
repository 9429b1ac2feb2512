import { z } from "zod";

/**
 * The graph a merchant draws: nodes and edges (SPEC §4). Browser-safe. This schema checks the
 * *shape* only; whether the graph makes sense (types known, params valid, no cycles…) is
 * `validate()`'s job, which returns every problem as a ready issue instead of throwing.
 */

const id = z
  .string()
  .min(1, "cannot be empty")
  .max(100, "is longer than 100 characters")
  .regex(/^[A-Za-z0-9_-]+$/, "use letters, digits, dashes or underscores");

export const MAX_NODES = 200;
export const MAX_EDGES = 400;
/** The largest serialised graph we store; a merchant's flow is a few KB. */
export const MAX_GRAPH_BYTES = 100_000;

export const graphNodeSchema = z.strictObject({
  id,
  type: z.string().min(1).max(100),
  params: z.record(z.string(), z.unknown()).default({}),
  position: z.strictObject({ x: z.number().finite(), y: z.number().finite() }).optional(),
});

export const graphEdgeSchema = z.strictObject({
  id,
  source: id,
  sourceHandle: z.string().min(1).max(50).default("out"),
  target: id,
});

export const graphSchema = z
  .strictObject({
    nodes: z.array(graphNodeSchema).max(MAX_NODES, `a flow can have at most ${MAX_NODES} steps`),
    edges: z.array(graphEdgeSchema).max(MAX_EDGES, `a flow can have at most ${MAX_EDGES} connections`),
  })
  .superRefine((graph, ctx) => {
    const seen = new Set<string>();
    graph.nodes.forEach((node, i) => {
      if (seen.has(node.id))
        ctx.addIssue({
          code: "custom",
          path: ["nodes", i, "id"],
          message: `'${node.id}' is used by two steps`,
        });
      seen.add(node.id);
    });
    const edgeIds = new Set<string>();
    graph.edges.forEach((edge, i) => {
      if (edgeIds.has(edge.id))
        ctx.addIssue({
          code: "custom",
          path: ["edges", i, "id"],
          message: `'${edge.id}' is used by two connections`,
        });
      edgeIds.add(edge.id);
    });
  });

export type Graph = z.infer<typeof graphSchema>;
export type GraphNode = z.infer<typeof graphNodeSchema>;
export type GraphEdge = z.infer<typeof graphEdgeSchema>;

export const EMPTY_GRAPH: Graph = { nodes: [], edges: [] };
