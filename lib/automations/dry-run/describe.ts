import type { PlannedStep } from "@/lib/automations/engine/interpreter";
import type { LegContext } from "@/lib/automations/engine/leg";
import type { PreparedWait } from "@/lib/automations/engine/prepare";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import type { Graph } from "@/lib/automations/graph/schema";
import { handleLabel } from "@/lib/automations/nodes/catalog";
import { templateContext } from "@/lib/automations/engine/leg";
import { formatInZone } from "@/lib/time/cron";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";

/**
 * The dry run's words: how a step is named, what an action would do ("Would add tag 'vip' to
 * order #1001.", from the action's request as the executor prepared it, templates filled in), why
 * a condition came out as it did, and when a wait would end. What a run would fail on is not said
 * here: the pipeline's `prepareAction` says it, for runs and dry runs alike.
 */

// The words steps' sentences share live with the steps (nodes/sentences.ts); the dry run's other
// sentences use them too.
export { excerpt, text } from "@/lib/automations/nodes/sentences";

/**
 * What an action would do, from the request its executor prepared: the action's own sentence
 * (`describeDryRun` on its definition; registry.ts checks every action has one).
 */
export function describeAction(
  type: string,
  request: Record<string, unknown>,
  subject: string,
  entity: RunEntity | null,
  timeZone = "UTC",
): string[] {
  const definition = registry.get(type);
  return definition?.describeDryRun
    ? definition.describeDryRun(request, { subject, entity, timeZone })
    : [`Would run '${type}'.`];
}

/**
 * How a step is named: its node's label and summary, its `{token}`s filled in from the leg (the
 * record the dry run is on); an action a code step asked for says so.
 */
export function stepHeading(graph: Graph, step: PlannedStep, leg: LegContext) {
  // A node of the graph, or (undefined) an action a code step asked for.
  const node = graph.nodes.find((n) => n.id === step.nodeId);
  const words = { domain: leg.entity?.domain ?? flowDomain(graph), values: templateContext(leg) };
  return {
    nodeId: step.nodeId,
    nodeType: step.nodeType,
    label: registry.get(step.nodeType)!.label,
    leg: leg.leg,
    summary:
      node || step.kind !== "action"
        ? summariseNode(node ?? { type: step.nodeType }, words)
        : `From the script: ${summariseNode({ type: step.nodeType, params: step.params }, words)}`,
  };
}

/** Why a condition came out as it did — what it read, against what — and the way it follows. */
export function conditionDetail(why: ConditionWhy | null, result: boolean): string {
  const verdict = `so it follows '${handleLabel(result ? "true" : "false")}'.`;
  return why ? `${why.text}, ${verdict}` : `It is ${result ? "true" : "false"}, ${verdict}`;
}

/** "in 2 days", "in 3 hours", "in 45 minutes". */
function fromNow(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const [amount, unit] =
    minutes >= 2 * 1440
      ? [Math.round(minutes / 1440), "day"]
      : minutes >= 120
        ? [Math.round(minutes / 60), "hour"]
        : [minutes, "minute"];
  return `in ${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/**
 * What a wait would do, its time in the shop's zone; an approval, which nobody can decide in a
 * dry run, times out.
 */
export function waitDetail(
  wait: Extract<PreparedWait, { ok: true }>,
  startedAt: Date,
  timeZone: string,
): string {
  return wait.kind === "approval"
    ? `Would wait for a decision ('${String(wait.output.title)}'), timing out after ${String(wait.output.timeoutHours)} h, then follow '${handleLabel("timed_out")}'.`
    : `Would wait until ${formatInZone(wait.resumeAt, timeZone)}, ${fromNow(wait.resumeAt.getTime() - startedAt.getTime())}.`;
}

/**
 * What a wait whose end a dry run cannot know would do (a wait for an event: as with an approval,
 * it follows 'Timed out' once the time limit has passed), in the step's own words
 * (`describeDryRunWait`). Null for a step without such words, or one whose settings do not parse
 * (the wait's own error says so).
 */
export function eventWaitDetail(
  node: { type: string; params?: unknown },
  resumeAt: Date,
  timeZone: string,
): string | null {
  const definition = registry.get(node.type);
  if (!definition?.describeDryRunWait) return null;
  const parsed = definition.params.safeParse(node.params ?? {});
  return parsed.success ? definition.describeDryRunWait(parsed.data, resumeAt, timeZone) : null;
}
