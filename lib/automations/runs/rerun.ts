import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { Caller } from "@/lib/identity/caller";
import { getDb, type Tx } from "@/lib/db/client";
import { automationRuns, automationRunSteps, automations, entities, type RunStatus } from "@/lib/db/schema";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { runEntityTitle } from "@/lib/domains/labels";
import { startReruns } from "@/lib/automations/engine/start/rerun";
import { platformCondition, PLATFORMS } from "@/lib/automations/insights/platform";
import { RERUN_FROM, RERUNNABLE, type RerunFrom } from "./rerunnable";
import { parseSubActionId } from "@/lib/automations/engine/sub-action";
import { flowDomain, summariseNode } from "@/lib/automations/nodes/registry";
import { getRun, type RunDetail } from "./detail";
import { automationSubject, liveGraph, loadRow } from "@/lib/automations/lifecycle/read";

/**
 * Re-running a run that failed or was cancelled (SPEC §4 `POST /api/v1/runs/:id/rerun`): a NEW run
 * of the automation's active version for the same event and record — the record as it is now —
 * linked to the old one by `rerunOf`. From the start, or from the step that failed: then its first
 * leg starts at that step (itself included) and the steps before it are not taken again. One plan
 * (`planRerun`) says what will happen, for the dialog before and the re-run itself.
 */

/** The most runs one bulk re-run takes. */
export const MAX_BULK_RERUN = 500;

const from = z.enum(RERUN_FROM, { error: "from must be 'start' or 'failed_step'" });

export const rerunInput = z.strictObject({ from: from.default("start") });

export const bulkRerunInput = z.strictObject({
  from: from.default("start"),
  automationId: z.uuid("automationId must be an automation's id").optional(),
  status: z.enum(RERUNNABLE as [RunStatus, ...RunStatus[]]).optional(),
  ids: z.array(z.uuid()).min(1).max(MAX_BULK_RERUN).optional(),
  /** Whose runs: the merchant's own, the built-ins', or all (default). */
  platform: z.enum(PLATFORMS).default("all"),
});

type RunRow = typeof automationRuns.$inferSelect;
type AutomationRow = typeof automations.$inferSelect;

export interface RerunPlan {
  run: RunRow;
  automation: AutomationRow;
  /** The node the new run's first leg starts at, itself included; null: from the trigger. */
  startAt: { nodeId: string; label: string } | null;
}

/** The step a run failed at first: its node (a code step's action → the code step), or null. */
async function failedNode(tx: Tx | ReturnType<typeof getDb>, runId: string): Promise<string | null> {
  const [step] = await tx
    .select({ nodeId: automationRunSteps.nodeId })
    .from(automationRunSteps)
    .where(and(eq(automationRunSteps.runId, runId), eq(automationRunSteps.status, "failed")))
    .orderBy(asc(automationRunSteps.leg), asc(automationRunSteps.position))
    .limit(1);
  if (!step) return null;
  return parseSubActionId(step.nodeId)?.nodeId ?? step.nodeId;
}

/** Whether and how `run` can be re-run `from`: the plan, or the refusal as a sentence (AppError). */
async function planRerun(
  tx: Tx | ReturnType<typeof getDb>,
  run: RunRow,
  start: RerunFrom,
): Promise<RerunPlan> {
  if (!RERUNNABLE.includes(run.status)) {
    throw new AppError(
      409,
      "conflict",
      `Only a failed, partial or cancelled run can be re-run; this one is ${run.status}.`,
    );
  }
  const automation = await loadRow(tx, run.tenantId, run.automationId);
  const graph = liveGraph(automation, "re-run its runs");
  if (!graph.nodes.some((n) => n.id === run.triggerNodeId)) {
    throw new AppError(
      422,
      "invalid",
      `Version ${automation.version} of '${automation.name}' no longer has the trigger this run started from, so it cannot be re-run.`,
    );
  }
  if (start === "start") return { run, automation, startAt: null };
  const nodeId = await failedNode(tx, run.id);
  if (!nodeId) {
    throw new AppError(422, "invalid", "This run has no failed step; re-run it from the start.");
  }
  const node = graph.nodes.find((n) => n.id === nodeId);
  if (!node) {
    throw new AppError(
      422,
      "invalid",
      `The step that failed is not in version ${automation.version} of '${automation.name}' any more; re-run it from the start.`,
    );
  }
  return {
    run,
    automation,
    startAt: { nodeId, label: summariseNode(node, { domain: flowDomain(graph) }) },
  };
}

/** What a re-run will do, in the words the dialog and the reply use. */
function sentence(plan: RerunPlan, subject: string | null): string {
  const { automation, startAt } = plan;
  const about = subject ? ` for ${subject}` : "";
  const where = startAt
    ? `from '${startAt.label}', the step that failed; the steps before it are not taken again`
    : "from the start";
  const record = subject ? ", with the record as it is now" : "";
  return `Starts a new run of '${automation.name}'${about} ${where}, on version ${automation.version}${record}. The old run stays as it is.`;
}

async function loadRun(tenantId: string, id: string): Promise<RunRow> {
  if (!isUuid(id)) throw notFound("That run");
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.tenantId, tenantId), eq(automationRuns.id, id)));
  if (!run) throw notFound("That run");
  return run;
}

/** The run's record as merchants name it ("Order #1022 · €65.00"), as the run pages name it. */
async function subjectOf(run: RunRow): Promise<string | null> {
  if (!run.entityId) return null;
  const [record] = await getDb()
    .select({ data: entities.data })
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, run.tenantId),
        eq(entities.domain, run.domain),
        eq(entities.id, run.entityId),
      ),
    );
  return runEntityTitle(run.domain, run.entityId, record?.data ?? null);
}

/**
 * Starts the re-runs and their first-leg jobs, in the caller's transaction, through the engine's one
 * start path (engine/start/rerun.ts, which says why a re-run is not capped). Returns the new ids.
 */
async function startPlans(tx: Tx, tenantId: string, plans: RerunPlan[]): Promise<string[]> {
  return startReruns(
    tx,
    tenantId,
    plans.map(({ run, automation, startAt }) => ({
      of: run,
      version: automation.version,
      fromNodeId: startAt?.nodeId ?? null,
    })),
  );
}

/** The dialog's sentence before re-running one run `from` (a refusal is thrown as its sentence). */
export async function rerunImpact(
  tenantId: string,
  runId: string,
  body: unknown,
): Promise<{ impact: string }> {
  const { from: start } = parseOrThrow(rerunInput, body ?? {}, "The re-run is invalid");
  const run = await loadRun(tenantId, runId);
  const plan = await planRerun(getDb(), run, start);
  return { impact: sentence(plan, await subjectOf(run)) };
}

/** Re-runs one run (editors): the new run, linked by `rerunOf`, and what it does. */
export async function rerunRun(
  caller: Caller,
  runId: string,
  body: unknown,
): Promise<{ run: RunDetail; impact: string }> {
  const { from: start } = parseOrThrow(rerunInput, body ?? {}, "The re-run is invalid");
  const tenantId = caller.tenant.id;
  const old = await loadRun(tenantId, runId);
  const subject = await subjectOf(old);
  const { id, impact } = await getDb().transaction(async (tx) => {
    const plan = await planRerun(tx, old, start);
    const [newId] = await startPlans(tx, tenantId, [plan]);
    await recordAudit(tx, caller, {
      action: "run.rerun",
      ...automationSubject(plan.automation),
      detail: { name: plan.automation.name, runId: old.id, newRunId: newId, from: start },
    });
    return { id: newId!, impact: sentence(plan, subject) };
  });
  return { run: await getRun(tenantId, id), impact };
}

/** The runs a bulk re-run picks: by ids, or the newest matching the filter, at most 500. */
async function bulkRuns(tenantId: string, input: z.infer<typeof bulkRerunInput>): Promise<RunRow[]> {
  const conditions = [
    eq(automationRuns.tenantId, tenantId),
    inArray(automationRuns.status, input.status ? [input.status] : [...RERUNNABLE]),
  ];
  if (input.automationId) conditions.push(eq(automationRuns.automationId, input.automationId));
  if (input.ids) conditions.push(inArray(automationRuns.id, input.ids));
  const platform = platformCondition(tenantId, sql`${automationRuns.automationId}`, input.platform);
  if (platform) conditions.push(platform);
  return getDb()
    .select()
    .from(automationRuns)
    .where(and(...conditions))
    .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
    .limit(MAX_BULK_RERUN);
}

/** Plans each picked run; the ones that cannot be re-run are counted with their reason. */
async function planBulk(tenantId: string, body: unknown) {
  const input = parseOrThrow(bulkRerunInput, body ?? {}, "The re-run is invalid");
  const runs = await bulkRuns(tenantId, input);
  const plans: RerunPlan[] = [];
  const refused = new Map<string, number>();
  for (const run of runs) {
    try {
      plans.push(await planRerun(getDb(), run, input.from));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refused.set(error.message, (refused.get(error.message) ?? 0) + 1);
    }
  }
  return { input, runs, plans, refused };
}

function bulkSentence(plans: RerunPlan[], refused: Map<string, number>, start: RerunFrom): string {
  const parts: string[] = [];
  const n = plans.length;
  if (n === 0) parts.push("No run here can be re-run.");
  else
    parts.push(
      `Starts ${n} new run${n === 1 ? "" : "s"} ${start === "start" ? "from the start" : "from the step each failed at"}, each on its automation's active version with its record as it is now; the old runs stay as they are.`,
    );
  for (const [reason, count] of refused) parts.push(`${count} cannot: ${reason}`);
  return parts.join(" ");
}

/** What a bulk re-run would do, before it is confirmed. */
export async function bulkRerunImpact(
  tenantId: string,
  body: unknown,
): Promise<{ count: number; impact: string }> {
  const { input, plans, refused } = await planBulk(tenantId, body);
  return { count: plans.length, impact: bulkSentence(plans, refused, input.from) };
}

/** Re-runs the runs a filter (or a list of ids) picks: those that can be, in one transaction. */
export async function rerunRuns(
  caller: Caller,
  body: unknown,
): Promise<{ runIds: string[]; impact: string }> {
  const { input, plans, refused } = await planBulk(caller.tenant.id, body);
  if (plans.length === 0) return { runIds: [], impact: bulkSentence(plans, refused, input.from) };
  const runIds = await getDb().transaction(async (tx) => {
    const ids = await startPlans(tx, caller.tenant.id, plans);
    await recordAudit(tx, caller, {
      action: "runs.rerun",
      subjectType: input.automationId ? "automation" : "shop",
      subjectId: input.automationId ?? caller.tenant.id,
      // The new runs' ids: who started each is read from here (engine/run-starter.ts).
      detail: { count: ids.length, from: input.from, status: input.status ?? null, runIds: ids },
    });
    return ids;
  });
  return { runIds, impact: bulkSentence(plans, refused, input.from) };
}
