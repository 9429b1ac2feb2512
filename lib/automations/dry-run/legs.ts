import {
  nextAction,
  type ConditionStep,
  type SplitStep,
  type WaitStep,
  type WalkMode,
} from "@/lib/automations/engine/advance";
import { evaluatorFor } from "@/lib/automations/engine/evaluate";
import { MAX_PLANNED_STEPS, walkFrom, type Walk } from "@/lib/automations/engine/interpreter";
import { newLeg } from "@/lib/automations/engine/leg";
import { startingLeg, type Leg } from "@/lib/automations/engine/leg-state";
import { keptOutput } from "@/lib/automations/engine/kept-output";
import { splitWhy } from "@/lib/automations/engine/split-step";
import type { PreparedWait } from "@/lib/automations/engine/prepare";
import type { RunEvent } from "@/lib/db/schema";
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

/** A wait the walk met (its settings parsed), for the caller to say how it ends. */
export interface MetWait {
  nodeId: string;
  nodeType: string;
  kind: Extract<PreparedWait, { ok: true }>["kind"];
  /** Its outs, in the order drawn: an approval's `approved`, `rejected`, `timed_out`. */
  outs: readonly string[];
}

/**
 * How a wait ends: the out to follow from it (every out when absent: a Wait's one), and the event
 * that woke a wait for one, which the steps after it read. Null: the walk does not go past it.
 */
export type WaitEnd = { handle?: string; event?: RunEvent } | null;

/**
 * A dry run's: every wait ends — a Wait after its time, an approval or a wait for an event as
 * timed out, since nobody decides and no event comes in a dry run.
 */
export const endsTimedOut = (wait: MetWait): WaitEnd =>
  wait.kind === "delay" ? {} : { handle: "timed_out" };

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
  /** The event that woke the wait it continues (`{steps.<wait>.event.…}`). */
  woken?: RunEvent;
}

/** The dry run's mode of the engine's walk: conditions and waits written down, waits queued. */
class DryWalk implements WalkMode {
  private readonly pending: PendingLeg[];
  private met = 0;

  constructor(
    private readonly start: DryRunStart,
    private readonly trail: Trail,
    /** How each wait ends (a backtest: as the real run's did); null stops the walk there. */
    private readonly ends: (wait: MetWait) => WaitEnd,
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

  /** A split takes the branch the real run would: the same hash of automation, step and subject. */
  split(leg: Leg, step: SplitStep) {
    const heading = stepHeading(this.start.graph, step, leg.ctx);
    const why = splitWhy(this.start.graph, step);
    if (!step.choice || !why) {
      this.trail.steps.push({
        ...heading,
        kind: "condition",
        outcome: "error",
        detail: [],
        error: step.error,
      });
      return;
    }
    this.trail.steps.push({
      ...heading,
      kind: "condition",
      outcome: "branch",
      detail: [`Goes down ${why}`],
      branch: { ...step.choice },
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
    const end = this.ends({
      nodeId: step.nodeId,
      nodeType: step.nodeType,
      kind: wait.kind,
      outs: registry.get(step.nodeType)?.handles.out ?? [],
    });
    if (!end) return;
    // Nobody can decide in a dry run, so an approval is followed as if it timed out.
    if (wait.kind === "approval" && end.handle === "timed_out") this.trail.approvals += 1;
    this.pending.push({
      start: step.nodeId,
      now: wait.resumeAt,
      order: ++this.met,
      waitStep,
      ...(end.handle ? { startHandle: end.handle } : {}),
      ...(end.event ? { woken: end.event } : {}),
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
  // The event that woke the wait, as a run hands it on: what follows reads `{steps.<wait>.event.…}`.
  if (pending.woken) {
    const nodeType = start.graph.nodes.find((n) => n.id === pending.start)?.type ?? "";
    ctx.steps[pending.start] = keptOutput(ctx, { nodeId: pending.start, nodeType }, { event: pending.woken });
  }
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
 * Walks every leg of the run, in the order their waits come due, into `trail`. `ends` says how
 * each wait ends — by default as a dry run takes it (`endsTimedOut`); a backtest as the real run's
 * did — and where the walk stops (null: the wait is written down, nothing after it).
 */
export async function walkLegs(
  run: DryRunOf,
  start: DryRunStart,
  trail: Trail,
  { ends = endsTimedOut }: { ends?: (wait: MetWait) => WaitEnd } = {},
): Promise<void> {
  const mode = new DryWalk(start, trail, ends);
  for (let pending = mode.next(); pending; pending = mode.next()) {
    const leg = planLeg(run, start, trail, pending);
    if (!leg) return;
    for (let step = nextAction(leg, mode); step; step = nextAction(leg, mode)) {
      await tryAction(start, trail, leg, step);
    }
  }
}
