import {
  nextAction,
  type ConditionStep,
  type WaitStep,
  type WalkMode,
} from "@/lib/automations/engine/advance";
import { evaluatorFor } from "@/lib/automations/engine/evaluate";
import { MAX_PLANNED_STEPS, walkFrom, type Walk } from "@/lib/automations/engine/interpreter";
import { newLeg } from "@/lib/automations/engine/leg";
import { startingLeg, type Leg } from "@/lib/automations/engine/leg-state";
import type { PreparedWait } from "@/lib/automations/engine/prepare";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import { registry } from "@/lib/automations/nodes/registry";
import { readsStepOutput } from "@/lib/automations/nodes/conditions/field";
import { readPath } from "@/lib/domains/fields";
import { conditionDetail, eventWaitDetail, stepHeading, waitDetail } from "./describe";
import { tryAction } from "./effect";
import type { DryRunStep, Trail } from "./result";
import { DRY_RUN_ID, type DryRunStart } from "./start";
import { messageOf } from "@/lib/errors";

/**
 * The legs of a dry run, walked as a run walks them: each built by `newLeg`, planned by the
 * interpreter and advanced by the engine's own walk (`engine/advance.ts`) in a mode that writes
 * down what a run would do — the conditions it decides, the waits it would make — and takes each
 * action with no effect (`effect.ts`). A wait queues the leg that would resume it; legs are
 * numbered in the order their waits come due, as a run numbers them.
 */

/** The automation a dry run tries, for the legs it builds. */
export interface DryRunOf {
  tenantId: string;
  timeZone: string;
  automation: { id: string; name: string; version: number };
}

/** A leg still to walk: from the trigger or from a wait, at the time it would resume. */
interface PendingLeg {
  start: string;
  now: Date;
  /** The order it was met in, to break ties between waits that resume at the same time. */
  order: number;
  /** The wait step it continues, told which leg carries on from it once that is known. */
  waitStep?: DryRunStep;
  /** The one out to follow from `start`: an approval's, which a dry run takes as timed out. */
  startHandle?: string;
}

/** The dry run's mode of the engine's walk: conditions and waits written down, waits queued. */
class DryWalk implements WalkMode {
  private readonly pending: PendingLeg[];
  private met = 0;

  constructor(
    private readonly start: DryRunStart,
    private readonly trail: Trail,
    /** Stop at the first wait (a backtest): it is written down as "would wait", nothing after it. */
    private readonly firstLegOnly: boolean,
  ) {
    this.pending = [{ start: start.trigger.id, now: start.now, order: 0 }];
  }

  /** The leg to walk next: the one whose wait comes due first. */
  next(): PendingLeg | undefined {
    this.pending.sort((a, b) => a.now.getTime() - b.now.getTime() || a.order - b.order);
    return this.pending.shift();
  }

  condition(leg: Leg, step: ConditionStep, why: ConditionWhy | null) {
    const node = this.start.graph.nodes.find((n) => n.id === step.nodeId)!;
    // A condition on an earlier action's output (an HTTP answer) finds nothing in a dry run: say so.
    const path = (node.params as { path?: unknown }).path;
    if (
      typeof path === "string" &&
      readsStepOutput(path) &&
      readPath(leg.ctx.steps, path.slice("steps.".length)) === undefined
    )
      this.trail.readsSteps = true;
    this.trail.steps.push({
      ...stepHeading(this.start.graph, step, leg.ctx),
      kind: "condition",
      outcome: step.result ? "true" : "false",
      detail: [conditionDetail(why, step.result)],
      ...(why ? { why } : {}),
    });
  }

  wait(leg: Leg, step: WaitStep, wait: PreparedWait) {
    const heading = stepHeading(this.start.graph, step, leg.ctx);
    if (!wait.ok) {
      this.trail.steps.push({ ...heading, kind: "wait", outcome: "error", detail: [], error: wait.error });
      return;
    }
    const waitStep: DryRunStep = {
      ...heading,
      kind: "wait",
      outcome: "would_wait",
      resumeAt: wait.resumeAt.toISOString(),
      detail: [waitDetail(wait, this.start.now, leg.ctx.timeZone)],
    };
    // No event comes in a dry run: a wait for one is followed as timed out, as an approval is.
    const node = this.start.graph.nodes.find((n) => n.id === step.nodeId);
    const forEvent = node ? eventWaitDetail(node, wait.resumeAt, leg.ctx.timeZone) : null;
    if (forEvent) {
      waitStep.detail = [forEvent];
      this.trail.eventWaits = (this.trail.eventWaits ?? 0) + 1;
    }
    this.trail.steps.push(waitStep);
    if (this.firstLegOnly) return;
    // Nobody can decide in a dry run, so an approval is followed as if it timed out.
    const approval = wait.kind === "approval";
    if (approval) this.trail.approvals += 1;
    this.pending.push({
      start: step.nodeId,
      now: wait.resumeAt,
      order: ++this.met,
      waitStep,
      ...(approval || forEvent ? { startHandle: "timed_out" } : {}),
    });
  }
}

const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
];

/** A leg in the merchant's words (a leg is ours): "the second part of the run". */
export function partOfRun(leg: number): string {
  return leg >= 1 && leg <= ORDINALS.length
    ? `the ${ORDINALS[leg - 1]} part of the run`
    : `part ${leg} of the run`;
}

/**
 * The next leg, as the engine builds and plans it; null when it cannot be walked (the walk
 * failed, or the run would take too many steps), said in a note.
 */
function planLeg(run: DryRunOf, start: DryRunStart, trail: Trail, pending: PendingLeg): Leg | null {
  trail.legs += 1;
  pending.waitStep?.detail.push(`Then the flow carries on from here, ${partOfRun(trail.legs)}.`);
  const ctx = newLeg({
    tenantId: run.tenantId,
    runId: DRY_RUN_ID,
    automationId: run.automation.id,
    automationName: run.automation.name,
    automationVersion: run.automation.version,
    leg: trail.legs,
    event: start.event,
    // The first leg sees the status the event fired for; a resumed leg the record as it is.
    entity: trail.legs === 1 ? start.pinned : start.current,
    now: pending.now,
    timeZone: run.timeZone,
  });
  let walk: Walk;
  try {
    walk = walkFrom(start.graph, pending.start, registry, evaluatorFor(ctx), {
      startHandle: pending.startHandle,
    });
  } catch (error) {
    trail.notes.push(messageOf(error));
    return null;
  }
  if (trail.steps.length + walk.steps.length > MAX_PLANNED_STEPS) {
    trail.notes.push(`This run would take more than ${MAX_PLANNED_STEPS} steps; the dry run stops there.`);
    return null;
  }
  for (const step of walk.steps) trail.nodeIds.add(step.nodeId);
  for (const id of walk.edgeIds) trail.edgeIds.add(id);
  return startingLeg(ctx, start.graph, walk.steps);
}

/**
 * Walks every leg of the run, in the order their waits come due, into `trail` — or, with
 * `firstLegOnly`, the first leg, up to and including the waits it meets.
 */
export async function walkLegs(
  run: DryRunOf,
  start: DryRunStart,
  trail: Trail,
  { firstLegOnly = false }: { firstLegOnly?: boolean } = {},
): Promise<void> {
  const mode = new DryWalk(start, trail, firstLegOnly);
  for (let pending = mode.next(); pending; pending = mode.next()) {
    const leg = planLeg(run, start, trail, pending);
    if (!leg) return;
    for (let step = nextAction(leg, mode); step; step = nextAction(leg, mode)) {
      await tryAction(start, trail, leg, step);
    }
  }
}
