import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { entityName } from "@/lib/domains/labels";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { effectiveDomain, hasRecord, registry, triggerMatches } from "@/lib/automations/nodes/registry";
import { walkLegs, type DryRunOf } from "@/lib/automations/dry-run/legs";
import type { Trail } from "@/lib/automations/dry-run/result";
import type { DryRunStart } from "@/lib/automations/dry-run/start";
import type { PastRun } from "./history";

/**
 * One real run replayed through a graph with no effects: the dry run's walk (`walkLegs`), from
 * the run's own trigger event, on its record as it is now with the status its event fired for
 * (what a real run's first part sees), up to and including the first wait. Returns the steps it
 * would reach, its trigger first — none when the graph's triggers no longer accept the event —
 * and what the walk noted.
 */
export async function replayRun(
  of: DryRunOf,
  graph: Graph,
  run: PastRun,
  record: RunEntity | null,
): Promise<{ now: string[]; notes: string[] }> {
  const trigger = triggerFor(graph, run);
  if (!trigger) return { now: [], notes: [] };
  const domain = effectiveDomain(trigger);
  const start: DryRunStart = {
    graph,
    trigger,
    definition: registry.get(trigger.type)!,
    domain,
    now: new Date(),
    event: run.event,
    // Only the first part is walked: it sees the record pinned, and no later part reads it again.
    current: record,
    pinned: record,
    subject: record
      ? entityName(record.domain, record.id, record.data)
      : hasRecord(domain)
        ? `the ${DOMAIN_LABELS[domain].one} this run is about`
        : "the run's record",
  };
  const trail: Trail = {
    steps: [],
    nodeIds: new Set([trigger.id]),
    edgeIds: new Set(),
    notes: [],
    legs: 0,
    readsSteps: false,
    approvals: 0,
  };
  await walkLegs(of, start, trail, { firstLegOnly: true });
  return { now: [trigger.id, ...new Set(trail.steps.map((step) => step.nodeId))], notes: trail.notes };
}

/**
 * The trigger the run would start from in `graph`: its own trigger node if it still accepts the
 * event, else the first that does. A trigger that fires on no event (a schedule, a Later step)
 * starts the run only as the same node.
 */
function triggerFor(graph: Graph, run: PastRun): GraphNode | null {
  const accepts = (node: GraphNode) => {
    const definition = registry.get(node.type);
    if (definition?.category !== "trigger") return false;
    if (!definition.event) return node.id === run.triggerNodeId;
    return triggerMatches(definition, node.params, { type: run.event.type, payload: run.event.payload });
  };
  return (
    graph.nodes.find((node) => node.id === run.triggerNodeId && accepts(node)) ??
    graph.nodes.find(accepts) ??
    null
  );
}
