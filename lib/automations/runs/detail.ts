import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import {
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  automations,
  automationVersions,
  entities,
  tenants,
  type RunEvent,
  type RunStatus,
  type StepStatus,
} from "@/lib/db/schema";
import { approvalInfo, type ApprovalInfo } from "@/lib/automations/nodes/timing/approval.run";
import type { Graph } from "@/lib/automations/graph/schema";
import { stepLabel } from "@/lib/automations/engine/step-labels";
import type { Decision } from "@/lib/automations/engine/wake";
import type { PublishedVersion } from "@/lib/automations/store/versions";
import { waitDecisions, type WaitFate } from "@/lib/automations/waits/fate";
import { waitView, type WaitView } from "@/lib/automations/waits/view";
import { votesAndTeams } from "@/lib/automations/engine/votes";
import type { WaitRow } from "@/lib/automations/store/waits";
import { isUuid, notFound } from "@/lib/errors";
import { eventView } from "@/lib/automations/nodes/context";
import type { TemplateContext } from "@/lib/automations/tokens/render";
import type { ConditionWhy } from "@/lib/automations/nodes/types";
import { nextWaitOf, nodeStatuses, numberOccurrences } from "./timeline";
import { entityJoin, summary, type RunRow, type RunSummary } from "./summary";

/** One step of a run (`GET /api/v1/runs/{id}`): a node as it ran in one leg. */
export interface RunStep {
  id: string;
  nodeId: string;
  nodeType: string;
  /** The step as drawn in the run's version ("Wait 2 days"). */
  label: string;
  /** The node's category: `trigger`, `condition`, `action` or `wait`. */
  category: string;
  status: StepStatus;
  /** The leg it ran in: 1 from the trigger, one more for each resume. */
  leg: number;
  input: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
  error: string | null;
  /** Why it was skipped or stopped, in words. */
  reason: string | null;
  /** A condition's: what it read, what it compared it with, and in words ("Total is 80, not more than 100"). */
  why?: ConditionWhy;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  /** Which time its node ran in this run: 1, 2, … (a node runs at most once a leg). */
  occurrence: number;
  /** The step's key on the timeline: `nodeId#occurrence` ("tag#2"). */
  key: string;
}

/** One wait of a run, as its detail shows it. */
export interface RunWait extends WaitView {
  /** The step it waits at as drawn in the run's version ("Wait 2 days"). */
  label: string;
  /** The wait's own step row (none for a `later`, whose run goes on). */
  stepId: string | null;
  /** A pending wait: what it will do when it wakes, as things stand. */
  fate: WaitFate | null;
  /**
   * A wait that woke but whose leg the wake table stopped (its step skipped, the run cancelled):
   * why. Null for a wait that did resume.
   */
  cancelledAtWake: string | null;
  /** For an approval: what was asked, of whom, and who decided what (null for other kinds). */
  approval: ApprovalInfo | null;
}

/** A run that re-ran this one. */
export interface RerunLink {
  id: string;
  status: RunStatus;
  /** Its actions once settled (0 on a succeeded run: nothing to do). */
  actionsTaken: number | null;
  createdAt: string;
}

/** A condition a branch of the run stopped at: its answer led nowhere. */
export interface StoppedAt {
  nodeId: string;
  /** The condition as drawn ("Order over €100?"). */
  label: string;
  /** What it answered. */
  result: boolean;
  /** What it read and compared: "Total is 80, not more than 100" (runs recorded before it: none). */
  why?: ConditionWhy;
}

/** One run with every step of every leg, its waits and the graph it ran on (`GET /api/v1/runs/{id}`). */
export interface RunDetail extends RunSummary {
  /** The trigger event as the run keeps it. */
  event: RunEvent;
  /** How many legs the run has run. */
  legs: number;
  /** Every step of every leg, by leg, then by place in the plan. */
  steps: RunStep[];
  /** Its waits, oldest first. */
  waits: RunWait[];
  /**
   * The graph of the version this run follows (null if that snapshot is gone): the one it is on
   * (`automationVersion`: the one it started on, or the one it moved to when it last woke), or
   * for a waiting run that moves to the latest version when it wakes, that one.
   */
  graph: Graph | null;
  /** The version `graph` is (null without a graph): `automationVersion` unless the run moves on waking. */
  graphVersion: number | null;
  /** Each node's latest status in this run, for drawing the path taken on the canvas. */
  nodeStatuses: Record<string, string>;
  /** A re-run from a step: the step it started at (its label as drawn), else null. */
  rerunFrom: { nodeId: string; label: string } | null;
  /** The runs that re-ran this one, oldest first. */
  reruns: RerunLink[];
  /**
   * A run with nothing to do (succeeded, no action taken): the conditions its branches stopped at,
   * in the order they ran. Empty for every other run.
   */
  stoppedAt: StoppedAt[];
}

type StepRow = typeof automationRunSteps.$inferSelect;

/** The run's row, with its automation's name and its record's data (null once either is gone). */
interface FoundRun {
  run: RunRow;
  automationName: string | null;
  entityData: Record<string, unknown> | null;
  /** The shop's time zone, which `{… | date}` tokens in step names are written in. */
  timeZone: string;
}

/** What a run's detail is made of besides its row, read side by side. */
interface RunParts {
  steps: StepRow[];
  waits: WaitRow[];
  graph: Graph | null;
  reruns: RerunLink[];
}

/** One run with every step of every leg, in order, its waits, and the graph of its version. */
export async function getRun(tenantId: string, id: string): Promise<RunDetail> {
  const found = await loadRun(tenantId, id);
  const parts = await loadParts(tenantId, found.run);
  const values = runValues(found, parts.steps);
  const steps = shapeSteps(parts.steps, parts.graph, values);
  const { waits, movesTo } = await shapeWaits(tenantId, found.run, parts, values);
  return assemble(found, parts, steps, waits, values, movesTo);
}

/** The run of this shop with this id; 404 for another shop's, or an id that could never exist. */
async function loadRun(tenantId: string, id: string): Promise<FoundRun> {
  if (!isUuid(id)) throw notFound("That run");
  const [found] = await getDb()
    .select({
      run: automationRuns,
      automationName: automations.name,
      entityData: entities.data,
      timeZone: tenants.timezone,
    })
    .from(automationRuns)
    .innerJoin(tenants, eq(tenants.id, automationRuns.tenantId))
    .leftJoin(automations, eq(automations.id, automationRuns.automationId))
    .leftJoin(entities, entityJoin())
    .where(and(eq(automationRuns.tenantId, tenantId), eq(automationRuns.id, id)));
  if (!found) throw notFound("That run");
  return found;
}

/** The run's steps, waits, version graph and re-runs, in four queries at once. */
async function loadParts(tenantId: string, run: RunRow): Promise<RunParts> {
  const [steps, waits, graph, reruns] = await Promise.all([
    loadSteps(run.id),
    loadWaits(tenantId, run.id),
    loadGraph(run),
    loadReruns(tenantId, run.id),
  ]);
  return { steps, waits, graph, reruns };
}

/** Every step of every leg: by leg, then by place in the plan. */
function loadSteps(runId: string): Promise<StepRow[]> {
  const s = automationRunSteps;
  return getDb()
    .select()
    .from(s)
    .where(eq(s.runId, runId))
    .orderBy(asc(s.leg), asc(s.position), asc(s.startedAt));
}

/** The run's waits, oldest first. */
function loadWaits(tenantId: string, runId: string): Promise<WaitRow[]> {
  const w = automationRunWaits;
  return getDb()
    .select()
    .from(w)
    .where(and(eq(w.tenantId, tenantId), eq(w.runId, runId)))
    .orderBy(asc(w.createdAt));
}

/** The graph of the version the run started on, or null when that snapshot is gone. */
async function loadGraph(run: RunRow): Promise<Graph | null> {
  const v = automationVersions;
  const [version] = await getDb()
    .select({ graph: v.graph })
    .from(v)
    .where(and(eq(v.automationId, run.automationId), eq(v.version, run.automationVersion)));
  return (version?.graph ?? null) as Graph | null;
}

/** The runs that re-ran this one, oldest first. */
async function loadReruns(tenantId: string, runId: string): Promise<RerunLink[]> {
  const r = automationRuns;
  const rows = await getDb()
    .select({ id: r.id, status: r.status, actionsTaken: r.actionsTaken, createdAt: r.createdAt })
    .from(r)
    .where(and(eq(r.tenantId, tenantId), eq(r.rerunOf, runId)))
    .orderBy(asc(r.createdAt));
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    actionsTaken: row.actionsTaken,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * What the run's step names fill their `{token}`s from: its record as it is now, its event, and
 * what its steps returned. Null for a run whose record is gone or that has none: its tokens are
 * described instead ("the order's number").
 */
function runValues(found: FoundRun, steps: StepRow[]): TemplateContext | null {
  const { run, entityData } = found;
  if (!entityData || !run.entityId) return null;
  const outputs: Record<string, unknown> = {};
  for (const step of steps) if (step.status === "success" && step.output) outputs[step.nodeId] = step.output;
  return {
    entity: { id: run.entityId, ...entityData },
    event: eventView(run.event),
    steps: outputs,
    variables: {},
    run: { id: run.id },
    now: run.startedAt ?? run.createdAt,
    timeZone: found.timeZone,
  };
}

/** The steps as the timeline shows them: labelled as drawn, each node's occurrences numbered. */
function shapeSteps(steps: StepRow[], graph: Graph | null, values: TemplateContext | null): RunStep[] {
  return numberOccurrences(
    steps.map((s) => ({
      id: s.id,
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      label: stepLabel(graph, s.nodeId, s.nodeType, values),
      category: s.category,
      status: s.status,
      leg: s.leg,
      input: s.input,
      output: s.output,
      error: s.error,
      reason: s.reason,
      ...(s.why ? { why: s.why } : {}),
      startedAt: s.startedAt.toISOString(),
      finishedAt: s.finishedAt?.toISOString() ?? null,
      durationMs: s.durationMs,
    })),
  );
}

/**
 * The waits with their labels, the pending ones' fates, and for an approval what it asked; and
 * the version the run goes on with when it wakes if that is not the one it is on (a publish with
 * "move to the latest version" while it waits), when every pending wait of it says so.
 */
async function shapeWaits(
  tenantId: string,
  run: RunRow,
  parts: RunParts,
  values: TemplateContext | null,
): Promise<{ waits: RunWait[]; movesTo: PublishedVersion | null }> {
  const stepsById = new Map(parts.steps.map((s) => [s.id, s]));
  const decided = await waitDecisions(
    tenantId,
    parts.waits.filter((w) => w.status === "pending"),
  );
  const { votesBy, teamNames } = await votesAndTeams(
    getDb(),
    tenantId,
    parts.waits.flatMap((w) =>
      w.kind === "approval" ? [{ id: w.id, asked: (w.stepId && stepsById.get(w.stepId)?.output) || {} }] : [],
    ),
  );
  const waits = parts.waits.map((w) => {
    const step = w.stepId ? stepsById.get(w.stepId) : undefined;
    return {
      ...waitView(w),
      label: stepLabel(parts.graph, w.nodeId, w.nodeType, values),
      stepId: w.stepId,
      fate: decided.get(w.id)?.fate ?? null,
      cancelledAtWake: cancelledAtWake(w, step, run),
      approval:
        w.kind === "approval"
          ? approvalInfo(w, step?.output, { votes: votesBy.get(w.id) ?? [], teamNames })
          : null,
    };
  });
  return { waits, movesTo: run.status === "waiting" ? movesTo(run, [...decided.values()]) : null };
}

/** The one version every leg of a waiting run goes on with, when it is not the run's own; else null. */
function movesTo(run: RunRow, decided: { decision: Decision }[]): PublishedVersion | null {
  const versions = decided.map(({ decision }) => (decision.go ? decision.version : null));
  const first = versions[0];
  if (!first || first.version === run.automationVersion) return null;
  return versions.every((v) => v?.version === first.version) ? first : null;
}

/** The detail: the run's summary, then what it is made of. */
function assemble(
  found: FoundRun,
  parts: RunParts,
  steps: RunStep[],
  waits: RunWait[],
  values: TemplateContext | null,
  movesTo: PublishedVersion | null,
): RunDetail {
  const { run } = found;
  const { graph } = parts;
  const earliest = waits
    .filter((w) => w.status === "pending")
    .sort((a, b) => a.resumeAt.localeCompare(b.resumeAt) || a.id.localeCompare(b.id))[0];
  return {
    ...summary(run, found.automationName, nextWaitOf(waits, steps), found.entityData),
    fate: run.status === "waiting" ? (earliest?.fate ?? null) : null,
    awaitingApproval: run.status === "waiting" && waits.some((w) => w.approval?.state === "pending"),
    event: run.event,
    legs: run.legs,
    steps,
    waits,
    // What it follows now: a run that moves to the latest version on waking is drawn on it.
    graph: movesTo?.graph ?? graph,
    graphVersion: movesTo?.version ?? (graph ? run.automationVersion : null),
    nodeStatuses: nodeStatuses(steps),
    rerunFrom: run.rerunFrom
      ? { nodeId: run.rerunFrom, label: stepLabel(graph, run.rerunFrom, run.rerunFrom, values) }
      : null,
    reruns: parts.reruns,
    stoppedAt: run.status === "succeeded" && run.actionsTaken === 0 ? stoppedAt(steps, graph) : [],
  };
}

/**
 * The condition steps whose answer has no connection out in the run's graph: where a branch ended.
 * Without the graph (its version gone), every condition step is listed.
 */
function stoppedAt(steps: RunStep[], graph: Graph | null): StoppedAt[] {
  const out: StoppedAt[] = [];
  for (const step of steps) {
    const result = step.output?.result;
    if (step.category !== "condition" || typeof result !== "boolean") continue;
    const handle = result ? "true" : "false";
    const goesOn = graph?.edges.some((e) => e.source === step.nodeId && e.sourceHandle === handle) ?? false;
    if (!goesOn)
      out.push({ nodeId: step.nodeId, label: step.label, result, ...(step.why ? { why: step.why } : {}) });
  }
  return out;
}

/** Why a resumed wait's leg did not run: its step skipped at wake (or, lacking one, the run's reason). */
function cancelledAtWake(wait: WaitRow, step: StepRow | undefined, run: RunRow): string | null {
  if (wait.status !== "resumed" || wait.kind === "later") return null;
  if (step)
    return step.status === "skipped" ? (step.reason ?? run.reason ?? "Cancelled when it woke.") : null;
  return run.status === "cancelled" ? (run.reason ?? "Cancelled when it woke.") : null;
}
