import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { entityName } from "@/lib/domains/labels";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { effectiveDomain, hasRecord, registry, triggerMatches } from "@/lib/automations/nodes/registry";
import { walkLegs, type DryRunOf, type MetWait, type WaitEnd } from "@/lib/automations/dry-run/legs";
import type { Trail } from "@/lib/automations/dry-run/result";
import type { DryRunStart } from "@/lib/automations/dry-run/start";
import type { PastRun, PastWait } from "./history";

/**
 * One real run replayed through a graph with no effects: the dry run's walk (`walkLegs`), from
 * the run's own trigger event, through every wait, on its record as it is now (its first part
 * with the status its event fired for, as a real run's first part sees it).
 *
 * Each wait ends as the real run's did at that step: a Wait after its time, an approval with the
 * decision it got (or timed out), a wait for an event with the event that woke it (or timed
 * out). Where the real run still waits, or was stopped while waiting, the walk stops too. A Wait
 * the real run never met ends after its own time; an approval or a wait for an event it never
 * met has no outcome to go by, so each of its outs is walked, one possible path each (at most
 * `MAX_POSSIBLE_PATHS`).
 */

export const MAX_POSSIBLE_PATHS = 8;

export interface Replay {
  /**
   * The steps it would reach, its trigger first, once per possible path (one, unless it met an
   * approval or wait for an event the real run never had); `[[]]` when the graph's triggers no
   * longer accept the event.
   */
  possible: string[][];
  /** The approvals and waits for an event whose outs were each walked. */
  undecided: string[];
  /** What the walk noted. */
  notes: string[];
}

/** How the real run's wait at this step ended, for the replay to end it alike; null: it did not. */
function endedAs(past: PastWait): WaitEnd {
  if (!past.wentOn) return null;
  if (past.kind === "approval") return { handle: past.decision ?? "timed_out" };
  if (past.kind === "event")
    return past.wokenEvent ? { handle: "received", event: past.wokenEvent } : { handle: "timed_out" };
  return {};
}

export async function replayRun(
  of: DryRunOf,
  graph: Graph,
  run: PastRun,
  record: RunEntity | null,
  pinned: RunEntity | null,
): Promise<Replay> {
  const trigger = triggerFor(graph, run);
  if (!trigger) return { possible: [[]], undecided: [], notes: [] };
  const domain = effectiveDomain(trigger);
  const start: DryRunStart = {
    graph,
    trigger,
    definition: registry.get(trigger.type)!,
    domain,
    now: new Date(),
    event: run.event,
    current: record,
    pinned,
    subject: record
      ? entityName(record.domain, record.id, record.data)
      : hasRecord(domain)
        ? `the ${DOMAIN_LABELS[domain].one} this run is about`
        : "the run's record",
  };
  const possible: string[][] = [];
  const undecided = new Set<string>();
  const notes = new Set<string>();
  // The out taken at each wait without an outcome, in the order the walk meets them: the walk is
  // the same up to the first choice that differs, so counting through them like an odometer
  // walks every possible path once.
  let choices: number[] = [];
  for (;;) {
    const outs: number[] = [];
    const ends = (wait: MetWait): WaitEnd => {
      const past = run.waits.get(wait.nodeId);
      if (past && past.kind === wait.kind) return endedAs(past);
      if (wait.kind === "delay" || wait.outs.length === 0) return {};
      undecided.add(wait.nodeId);
      const taken = choices[outs.length] ?? 0;
      outs.push(wait.outs.length);
      return { handle: wait.outs[taken] };
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
    await walkLegs(of, start, trail, { ends });
    possible.push([trigger.id, ...new Set(trail.steps.map((step) => step.nodeId))]);
    for (const note of trail.notes) notes.add(note);
    const taken = outs.map((_, i) => choices[i] ?? 0);
    let last = taken.length - 1;
    while (last >= 0 && taken[last]! + 1 >= outs[last]!) last -= 1;
    if (last < 0) break;
    if (possible.length >= MAX_POSSIBLE_PATHS) {
      notes.add(
        `A run meets so many approvals or waits for an event that it has no outcome for that only its first ${MAX_POSSIBLE_PATHS} possible paths were followed.`,
      );
      break;
    }
    choices = [...taken.slice(0, last), taken[last]! + 1];
  }
  return { possible, undecided: [...undecided], notes: [...notes] };
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
