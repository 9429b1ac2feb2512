import { reachableFrom } from "@/lib/automations/graph/reachability";
import type { ActionOutput } from "@/lib/automations/nodes/executor";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import { explainCondition } from "./evaluate";
import { continueAfter, type Continuation } from "./follow-up";
import type { PlannedStep } from "./interpreter";
import type { Leg } from "./leg-state";
import { prepareWait, type PreparedWait } from "./prepare";

/**
 * Advancing a leg along its plan: the one walk that a real leg (`phase.ts`) and a dry run
 * (`dry-run/`) both take, so each kind of step is handled here once.
 *
 *   condition  its result becomes the leg's `{steps.<id>.result}`, then the mode records it
 *              with why it went that way (what it read, what it compared it with)
 *   split      its choice `{ branch, label, weight, share }` becomes `{steps.<id>.…}`, then the
 *              mode records it (the branch, and its share of customers as the reason)
 *   wait       prepared (when it resumes, what it asks) and handed to the mode
 *   action     the walk stops with the cursor on it: the caller takes it — a phase acts, a dry
 *              run describes — and moves on with `actionDone` (its follow-up joins the plan) or
 *              `endBranch` (what follows it is not taken)
 *
 * A mode is what the caller does with the steps it passes: `PhaseWrites` gathers them for the
 * phase's transaction, the dry run writes down what a run would do. Nothing here awaits.
 */

export type ConditionStep = Extract<PlannedStep, { kind: "condition" }>;
export type SplitStep = Extract<PlannedStep, { kind: "split" }>;
export type ActionStep = Extract<PlannedStep, { kind: "action" }>;
export type WaitStep = Extract<PlannedStep, { kind: "wait" }>;

/** What a caller does with the steps the walk passes on its way to the next action. */
export interface WalkMode {
  /**
   * A condition was decided (its result is in the leg's outputs already), for the reason `why`
   * (null when it could not be: an undecided condition, or settings that no longer parse).
   */
  condition(leg: Leg, step: ConditionStep, why: ConditionWhy | null): void;
  /** A split chose its branch (its choice is in the leg's outputs already), or could not (`step.error`). */
  split(leg: Leg, step: SplitStep): void;
  /** A wait was met: prepared, or why it cannot be. What follows it is a later leg's. */
  wait(leg: Leg, step: WaitStep, wait: PreparedWait): void;
}

function unknownStep(step: never): never {
  throw new Error(`A planned step of an unknown kind: ${JSON.stringify(step)}.`);
}

/**
 * Takes `leg` from its cursor to its next action, returned with the cursor on it, or to its end
 * (null). Conditions and waits on the way are passed to `mode`.
 */
export function nextAction(leg: Leg, mode: WalkMode): ActionStep | null {
  while (leg.cursor < leg.plan.length) {
    const step = leg.plan[leg.cursor]!;
    switch (step.kind) {
      case "action":
        return step;
      case "condition":
        leg.ctx.steps[step.nodeId] = { result: step.result };
        mode.condition(
          leg,
          step,
          step.error ? null : explainCondition(leg.ctx, leg.graph, step.nodeId, step.result),
        );
        break;
      case "split":
        if (step.choice) leg.ctx.steps[step.nodeId] = { ...step.choice };
        mode.split(leg, step);
        break;
      case "wait":
        mode.wait(leg, step, prepareWait(leg.ctx, step));
        break;
      default:
        return unknownStep(step);
    }
    leg.cursor += 1;
  }
  return null;
}

/**
 * The action at the cursor was taken and returned `output`: it becomes `{steps.<id>.…}`, and a
 * step that decides its own next actions (a code step) has them and the walk after it put next
 * in the plan, which is returned (null for any other step).
 */
export function actionDone(leg: Leg, step: ActionStep, output: ActionOutput): Continuation | null {
  leg.ctx.steps[step.nodeId] = output;
  leg.cursor += 1;
  return continueAfter(leg, step, output, leg.cursor);
}

/**
 * The action at the cursor failed, for good or until its next attempt: the walk goes on past it,
 * without what follows it. Returns the nodes downstream of it.
 */
export function endBranch(leg: Leg, step: ActionStep): Set<string> {
  leg.cursor += 1;
  return deferDownstream(leg, step.nodeId);
}

/**
 * Takes what follows `nodeId` out of the rest of the leg's plan: after an action that will be
 * tried again (its next attempt, a leg of its own, plans it again) or that failed for good (SPEC
 * §2: the branch ends there). Returns the nodes downstream of `nodeId`.
 */
export function deferDownstream(leg: Leg, nodeId: string): Set<string> {
  const after = reachableFrom(leg.graph, nodeId);
  after.delete(nodeId);
  leg.plan = [
    ...leg.plan.slice(0, leg.cursor),
    ...leg.plan.slice(leg.cursor).filter((s) => !after.has(s.nodeId)),
  ];
  return after;
}
