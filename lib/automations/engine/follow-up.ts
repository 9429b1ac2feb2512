import { registry } from "@/lib/automations/nodes/registry";
import { executorFor } from "@/lib/automations/nodes/executors";
import type { ActionOutput } from "@/lib/automations/nodes/executor";
import { evaluatorFor } from "./evaluate";
import { walkFrom, type PlannedStep, type Walk } from "./interpreter";
import type { Leg } from "./leg-state";
import { keptOutput } from "./kept-output";
import { subActionId } from "./sub-action";

/**
 * After a step that decides its own next actions (the code step) has run: what it returned
 * becomes `{steps.<id>.…}`, the actions it asked for are taken next — each as a step of its own
 * (`code1#1`, `code1#2`, …) through the action's own executor, with its own delivery and dedupe
 * key — and then the flow after the step is walked, so its conditions read what it returned.
 * A fresh run and a replay (which reads the step's recorded output) both come through here, so
 * the script runs once and its actions are taken once.
 */

/**
 * What a step that decides its own next actions left: `{steps.<id>.…}` and its actions as planned
 * steps; null for any other step.
 */
export function followUpOf(
  step: { nodeId: string; nodeType: string },
  output: ActionOutput,
): { output: Record<string, unknown>; actions: PlannedStep[] } | null {
  const executor = executorFor(step.nodeType);
  if (executor?.effect !== "outside" || !executor.followUp) return null;
  const followUp = executor.followUp(output);
  return {
    output: followUp.output,
    actions: followUp.actions.map((action, i) => ({
      kind: "action",
      nodeId: subActionId(step.nodeId, i + 1),
      nodeType: action.type,
      params: action.params,
    })),
  };
}

/** What a step's follow-up put into its leg's plan: its output and actions, and the walk after it. */
export interface Continuation {
  output: Record<string, unknown>;
  actions: PlannedStep[];
  /** The walk after the step (its connections light the dry run's path). */
  onward: Walk;
}

/**
 * Continues `leg` after `step` ran with `output`: the step's actions, then the walk onward, are
 * put into the plan at `at` (the position after the step) and returned. What the step hands on is
 * held to its limits (`keptOutput`). A step whose definition plans what follows only once it has
 * run (`planAfterRun`: the code step, the HTTP action, whose answers conditions read) without
 * actions of its own: the walk onward alone. Any other step: nothing, null.
 */
export function continueAfter(
  leg: Leg,
  step: { nodeId: string; nodeType: string },
  output: ActionOutput,
  at: number,
): Continuation | null {
  const followUp = followUpOf(step, output);
  if (!followUp && !registry.get(step.nodeType)?.planAfterRun) return null;
  const handed = followUp ? keptOutput(leg.ctx, step, followUp.output) : output;
  leg.ctx.steps[step.nodeId] = handed;
  const actions = followUp?.actions ?? [];
  const onward = walkFrom(leg.graph, step.nodeId, registry, evaluatorFor(leg.ctx), {
    planned: new Set(leg.plan.map((s) => s.nodeId)),
  });
  leg.plan = [...leg.plan.slice(0, at), ...actions, ...onward.steps, ...leg.plan.slice(at)];
  return { output: handed, actions, onward };
}
