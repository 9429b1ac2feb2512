import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationVersions } from "@/lib/db/schema";
import type { Graph } from "@/lib/automations/graph/schema";
import { parseSubActionId } from "./sub-action";
import { flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";
import type { TemplateContext } from "@/lib/automations/tokens/render";

/**
 * A step's name as the merchant drew it: the node's summary in the version its run is on
 * ("Wait 2 days", "Add tag 'vip'"), else its type's label ("Wait"), else the raw type. Never the
 * node id: ids like `wait` read "Wait wait" beside a label. Its `{token}`s are filled in from
 * `values` (the run's record, on the run's page) or described ("the order's number").
 */
export function stepLabel(
  graph: Graph | null,
  nodeId: string,
  nodeType: string,
  values: TemplateContext | null = null,
): string {
  const words = { domain: flowDomain(graph), values };
  const node = graph?.nodes.find((n) => n.id === nodeId);
  if (node) return summariseNode(node, words);
  const label = registry.get(nodeType)?.label ?? nodeType;
  // An action a code step asked for: named with the step that asked ("Add tag · action 1 of 'Run code'").
  const sub = parseSubActionId(nodeId);
  const code = sub && graph?.nodes.find((n) => n.id === sub.nodeId);
  return sub
    ? `${label} · action ${sub.number} of '${code ? summariseNode(code, words) : sub.nodeId}'`
    : label;
}

interface AtVersion {
  automationId: string;
  automationVersion: number;
  nodeId: string;
  nodeType: string;
}

/** Labels of steps of many runs, with one query for the versions' graphs; keyed by `labelKey`. */
export async function stepLabels(
  tenantId: string,
  steps: readonly AtVersion[],
): Promise<Map<string, string>> {
  const graphs = await versionGraphs(tenantId, steps);
  return new Map(
    steps.map((s) => [
      labelKey(s),
      stepLabel(graphs.get(`${s.automationId}:${s.automationVersion}`) ?? null, s.nodeId, s.nodeType),
    ]),
  );
}

export function labelKey(step: AtVersion): string {
  return `${step.automationId}:${step.automationVersion}:${step.nodeId}`;
}

/** The graphs of the versions `steps` are on, keyed `automationId:version`, in one query. */
export async function versionGraphs(
  tenantId: string,
  steps: readonly Pick<AtVersion, "automationId" | "automationVersion">[],
): Promise<Map<string, Graph>> {
  const automationIds = [...new Set(steps.map((s) => s.automationId))];
  if (automationIds.length === 0) return new Map();
  const wanted = new Set(steps.map((s) => `${s.automationId}:${s.automationVersion}`));
  const v = automationVersions;
  const rows = await getDb()
    .select({ automationId: v.automationId, version: v.version, graph: v.graph })
    .from(v)
    .where(
      and(
        eq(v.tenantId, tenantId),
        inArray(v.automationId, automationIds),
        inArray(v.version, [...new Set(steps.map((s) => s.automationVersion))]),
      ),
    );
  return new Map(
    rows
      .map((row) => [`${row.automationId}:${row.version}`, row.graph] as const)
      .filter(([key]) => wanted.has(key)),
  );
}
