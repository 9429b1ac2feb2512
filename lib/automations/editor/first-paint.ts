import type { Graph } from "@/lib/automations/graph/schema";
import { validate, type ReadyIssue, type ServerFacts } from "@/lib/automations/review/validate";
import type { NodeInfo } from "@/lib/automations/nodes/catalog";
import { flowDomain, nodeCatalog, summariseNode } from "@/lib/automations/nodes/registry";
import { diffGraphs } from "@/lib/automations/review/diff";

/**
 * What the flow editor paints before anyone edits, worked out on the server with the registry so
 * the browser's first load has neither zod nor the node definitions (issue 13). The editor uses
 * it until its first interaction loads the registry (`state/node-logic-loader.ts`); from then on it works
 * everything out itself, as you type.
 */
export interface EditorFirstPaint {
  /** Every node type without its params schema: the palette, the cards' labels and exits. */
  nodes: NodeInfo[];
  /** Each step's sentence on the canvas ("Wait 2 days"), by node id. */
  summaries: Record<string, string>;
  /** The draft's ready issues. */
  issues: ReadyIssue[];
  /** The server's facts the ready issues depend on (is an AI model set up?), for the browser's `validate`. */
  facts: ServerFacts;
  /** Whether the draft's steps differ from the active version's (always, before the first). */
  stepsChanged: boolean;
}

export function editorFirstPaint(
  automation: {
    version: number;
    draftGraph: Graph;
    activeGraph: Graph | null;
  },
  facts: ServerFacts = {},
): EditorFirstPaint {
  const { draftGraph, activeGraph } = automation;
  return {
    nodes: nodeCatalog(),
    summaries: Object.fromEntries(
      draftGraph.nodes.map((node) => [node.id, summariseNode(node, { domain: flowDomain(draftGraph) })]),
    ),
    issues: validate(draftGraph, undefined, facts),
    facts,
    stepsChanged: automation.version === 0 || !diffGraphs(activeGraph, draftGraph).isEmpty,
  };
}
