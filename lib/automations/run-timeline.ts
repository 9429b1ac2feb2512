/**
 * Pure helpers that shape a run's steps for the run history (browser-safe, no I/O).
 *
 * A node can run more than once in one run — once per leg at most (a branch that meets again
 * after a wait, a resumed node) — so a step is identified by its node id *and* its occurrence:
 * the first time node `tag` ran is `tag#1`, the second `tag#2`.
 */

export interface TimelineStepInput {
  nodeId: string;
  status: string;
  leg: number;
}

/** Numbers each node's occurrences in the order given (leg, then position). */
export function numberOccurrences<S extends { nodeId: string }>(
  steps: readonly S[],
): Array<S & { occurrence: number; key: string }> {
  const seen = new Map<string, number>();
  return steps.map((step) => {
    const occurrence = (seen.get(step.nodeId) ?? 0) + 1;
    seen.set(step.nodeId, occurrence);
    return { ...step, occurrence, key: `${step.nodeId}#${occurrence}` };
  });
}

/** Steps grouped by leg, legs in ascending order; steps keep their order within a leg. */
export function groupByLeg<S extends { leg: number }>(
  steps: readonly S[],
): Array<{ leg: number; steps: S[] }> {
  const legs = new Map<number, S[]>();
  for (const step of steps) {
    const list = legs.get(step.leg);
    if (list) list.push(step);
    else legs.set(step.leg, [step]);
  }
  return [...legs.entries()].sort(([a], [b]) => a - b).map(([leg, list]) => ({ leg, steps: list }));
}

/**
 * Each node's status in the run: the status of its latest step (a node that waited in leg 1 and
 * succeeded when resumed is `success`). Nodes that never ran are absent. For the run's canvas.
 */
export function nodeStatuses(steps: readonly TimelineStepInput[]): Record<string, string> {
  const latest: Record<string, { leg: number; status: string }> = {};
  for (const step of steps) {
    const known = latest[step.nodeId];
    if (!known || step.leg >= known.leg) latest[step.nodeId] = { leg: step.leg, status: step.status };
  }
  return Object.fromEntries(Object.entries(latest).map(([id, v]) => [id, v.status]));
}
