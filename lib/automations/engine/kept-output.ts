import { registry } from "@/lib/automations/nodes/registry";
import type { ActionOutput } from "@/lib/automations/nodes/executor";
import { httpRequest } from "@/lib/automations/nodes/http-request/http-request";
import {
  cutMarkOf,
  cutOutput,
  cutReach,
  jsonBytes,
  STEP_OUTPUT_LIMITS,
} from "@/lib/automations/nodes/outputs";
import type { LegContext } from "./leg";

/**
 * The one place a step's output is held to its limits (SPEC §2 "What a step hands on", seed 001
 * "context bloat"): at most 16 KB of JSON, and the leg's outputs together at most 256 KB. What is
 * recorded (the step, the delivery) and what is handed on as `{steps.<id>.…}` are the same kept
 * output. Past a limit the output is cut (`nodes/outputs.ts`: as much structure as fits, the cut
 * containers listed) and says so; a later token or condition that reaches into the cut part fails
 * its step naming it (`cutRead`).
 */

const KB = 1000;

function why(nodeType: string, runLimit: boolean): { note: string; reason: string } {
  const answer = nodeType === httpRequest.type;
  const label = registry.get(nodeType)?.label ?? "this step";
  const what = answer ? "answer" : "output";
  if (runLimit)
    return {
      note: `The run's outputs together passed ${STEP_OUTPUT_LIMITS.runBytes / KB} KB; only part of this ${what} was kept.`,
      reason: `the run's outputs together were larger than ${STEP_OUTPUT_LIMITS.runBytes / KB} KB when '${label}' ran`,
    };
  return {
    note: `The ${what} was larger than ${STEP_OUTPUT_LIMITS.stepBytes / KB} KB; only part of it was kept.`,
    reason: `the ${what} of '${label}' was larger than ${STEP_OUTPUT_LIMITS.stepBytes / KB} KB`,
  };
}

/** `output` of `step` as the run keeps it: within 16 KB, and within what the leg's other outputs leave of 256 KB. */
export function keptOutput(
  ctx: Pick<LegContext, "steps">,
  step: { nodeId: string; nodeType: string },
  output: ActionOutput,
): ActionOutput {
  let others = 0;
  for (const [nodeId, value] of Object.entries(ctx.steps))
    if (nodeId !== step.nodeId) others += jsonBytes(value);
  const left = Math.max(0, STEP_OUTPUT_LIMITS.runBytes - others);
  const runLimit = left < STEP_OUTPUT_LIMITS.stepBytes;
  return cutOutput(output, Math.min(STEP_OUTPUT_LIMITS.stepBytes, left), why(step.nodeType, runLimit));
}

/**
 * Why a read of `steps.<id>.<path>` (segments after `steps`) cannot be trusted: it reaches into
 * the cut part of that step's output — "{steps.h.body.items} was cut: the answer of 'Send HTTP
 * request' was larger than 16 KB." — or null.
 */
export function cutRead(steps: LegContext["steps"], path: readonly string[]): string | null {
  const [nodeId, ...rest] = path;
  if (nodeId === undefined) return null;
  const output = steps[nodeId];
  if (!cutReach(output, rest)) return null;
  return `{${["steps", ...path].join(".")}} was cut: ${cutMarkOf(output)!.reason}.`;
}
