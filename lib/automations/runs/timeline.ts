/**
 * Pure helpers that shape a run's steps for the run history (browser-safe, no I/O).
 *
 * A node can run more than once in one run — once per leg at most (a branch that meets again
 * after a wait, a resumed node) — so a step is identified by its node id *and* its occurrence:
 * the first time node `tag` ran is `tag#1`, the second `tag#2`.
 */

import { APPROVAL_NODE_TYPE } from "@/lib/automations/nodes/timing/approval.run";

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

/**
 * Steps grouped by leg, legs in ascending order; steps keep their order within a leg. A leg is our
 * word, not a merchant's: each group carries a `title` in theirs ("From the trigger", "After the
 * wait", "After the approval") — what ended the leg before it is its last step's node type.
 */
export function groupByLeg<S extends { leg: number; nodeType: string }>(
  steps: readonly S[],
): Array<{ leg: number; title: string; steps: S[] }> {
  const legs = new Map<number, S[]>();
  for (const step of steps) {
    const list = legs.get(step.leg);
    if (list) list.push(step);
    else legs.set(step.leg, [step]);
  }
  const sorted = [...legs.entries()].sort(([a], [b]) => a - b);
  return sorted.map(([leg, list], i) => ({
    leg,
    title: legTitle(leg, sorted[i - 1]?.[1].at(-1)?.nodeType),
    steps: list,
  }));
}

/** A leg's heading: the first is "From the trigger"; a later one names what it resumed after. */
export function legTitle(leg: number, resumedAfter?: string): string {
  if (leg <= 1) return "From the trigger";
  return resumedAfter === APPROVAL_NODE_TYPE ? "After the approval" : "After the wait";
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

/**
 * A failed attempt's `output.retry`, written by the engine when the action will be tried again
 * (SPEC §2 "Retries"): the attempt that runs next, how many there are in all, and when (ISO).
 * Null for any other output, or one this code cannot read.
 */
export interface RetryNote {
  next: number;
  of: number;
  at: string;
}

function whole(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

export function retryNote(output: unknown): RetryNote | null {
  if (typeof output !== "object" || output === null) return null;
  const retry = (output as { retry?: unknown }).retry;
  if (typeof retry !== "object" || retry === null) return null;
  const { next, of, at } = retry as Record<string, unknown>;
  if (!whole(next) || !whole(of) || typeof at !== "string" || Number.isNaN(Date.parse(at))) return null;
  return { next, of, at };
}

/** What a waiting run waits on: the kind of its earliest pending wait. */
export interface NextWait {
  /** `delay`, `approval`, `retry` or `later`. */
  kind: string;
  /** For a retry: the attempt that runs next and how many there are in all (null when unknown). */
  retry: { attempt: number; of: number } | null;
  /**
   * For a deferred marketing message (`deferred`, lib/messaging): why it waits and until when, in
   * the customer's and the shop's time ("Waiting for quiet hours to end (21:00–08:00): sends at …").
   */
  deferred?: string | null;
}

/** The `NextWait` of a pending wait of `kind`, given the `output` of its node's last failed attempt. */
export function nextWait(kind: string, lastAttemptOutput: unknown, deferred: string | null = null): NextWait {
  const note = kind === "retry" ? retryNote(lastAttemptOutput) : null;
  return {
    kind,
    retry: note ? { attempt: note.next, of: note.of } : null,
    ...(kind === "deferred" ? { deferred } : {}),
  };
}

/**
 * The run's `NextWait` from its waits and steps (the run detail has both): its earliest pending
 * wait, and for a retry the note on the last failed step of that node. Null when nothing is pending.
 */
export function nextWaitOf(
  waits: readonly { kind: string; status: string; resumeAt: string; nodeId: string }[],
  steps: readonly { nodeId: string; status: string; leg: number; output: unknown; reason?: string | null }[],
): NextWait | null {
  let earliest: (typeof waits)[number] | undefined;
  for (const wait of waits) {
    if (wait.status !== "pending") continue;
    if (!earliest || Date.parse(wait.resumeAt) < Date.parse(earliest.resumeAt)) earliest = wait;
  }
  if (!earliest) return null;
  const { nodeId, kind } = earliest;
  let last: (typeof steps)[number] | undefined;
  for (const step of steps) {
    if (step.nodeId !== nodeId || step.status !== "failed" || !retryNote(step.output)) continue;
    if (!last || step.leg >= last.leg) last = step;
  }
  const waiting =
    kind === "deferred" ? steps.find((s) => s.nodeId === nodeId && s.status === "waiting") : undefined;
  return nextWait(kind, last?.output, waiting?.reason ?? null);
}

/**
 * Which attempt each step of a retried action was, by step key (`call#2` → attempt 2 of 3): a
 * failed attempt's note names the next one, so the step with a note is attempt `next - 1`, and the
 * node's next step (another failure, or the success) is attempt `next`. Steps that were never
 * retried are absent.
 */
export function attemptsOf(
  steps: readonly { key: string; nodeId: string; output: unknown }[],
): Map<string, { attempt: number; of: number }> {
  const attempts = new Map<string, { attempt: number; of: number }>();
  const announced = new Map<string, { attempt: number; of: number }>();
  for (const step of steps) {
    const note = retryNote(step.output);
    const expected = announced.get(step.nodeId);
    announced.delete(step.nodeId);
    if (note) {
      attempts.set(step.key, { attempt: note.next - 1, of: note.of });
      announced.set(step.nodeId, { attempt: note.next, of: note.of });
    } else if (expected) {
      attempts.set(step.key, expected);
    }
  }
  return attempts;
}
