import type { DeliveryStatus } from "@/lib/db/schema";
import type { OutsideExecutor } from "@/lib/automations/nodes/executor";
import type { Graph } from "@/lib/automations/graph/schema";
import type { PlannedStep } from "./interpreter";
import type { LegClaim } from "./fence";
import type { LegContext } from "./leg";

/*
 * The state of a leg while the pipeline executes it (and where it starts), and the hooks through which the pipeline
 * finishes what a phase cannot. Its own module so that the phase, its follow-up and the outside
 * step share the type without importing one another.
 */

/** What an earlier attempt of a leg recorded for one action (a replay reads it instead of acting). */
export interface RecordedAction {
  status: DeliveryStatus;
  request: Record<string, unknown>;
  response: Record<string, unknown> | null;
  error: string | null;
  step: { status: string; output: Record<string, unknown> | null } | null;
}

/** A leg being executed. */
export interface Leg {
  ctx: LegContext;
  /** The graph the leg walks (a retry defers what follows a failed action). */
  graph: Graph;
  plan: PlannedStep[];
  /** The next step of `plan` to take. */
  cursor: number;
  /** The claim its writes are fenced by (fence.ts); null in a dry run, which writes nothing. */
  claim: LegClaim | null;
  /** A replay's recorded actions by node id; null for a leg nobody tried before. */
  recorded: Map<string, RecordedAction> | null;
  /** A resumed leg's wait step, completed by the leg's first phase (with the wake note, if any). */
  opening: { stepId: string | null; note: string | null; output?: Record<string, unknown> } | null;
  /** Set by a phase: the outside action the leg stopped at. */
  outside: {
    step: Extract<PlannedStep, { kind: "action" }>;
    executor: OutsideExecutor<never>;
    request: Record<string, unknown>;
    /** An earlier attempt was cut short mid-request: send again under the same key, and say so. */
    resend: boolean;
    /** Its messaging gate let it go in this phase (lib/messaging): not asked again. */
    gated?: boolean;
  } | null;
}

/** What the pipeline does for a leg that executeLegs cannot finish by itself. */
export interface LegHooks {
  /** Reads back what an earlier attempt of the leg recorded, into `leg.recorded`. */
  reload(leg: Leg): Promise<void>;
  /** A leg alone failed unexpectedly (not an ActionError: those only fail their step). */
  onError(leg: Leg, error: unknown): Promise<void>;
  /** A guard stopped the leg: its run fails with this reason. */
  stop(leg: Leg, reason: string): Promise<void>;
}

/** A leg at the start of its plan, nothing recorded yet: how a run's leg and a dry run's begin. */
export function startingLeg(
  ctx: LegContext,
  graph: Graph,
  plan: PlannedStep[],
  opening: Leg["opening"] = null,
  claim: LegClaim | null = null,
): Leg {
  return { ctx, graph, plan, cursor: 0, claim, recorded: null, opening, outside: null };
}
