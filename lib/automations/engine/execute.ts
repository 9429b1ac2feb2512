import { getDb } from "@/lib/db/client";
import { registry } from "@/lib/automations/nodes/registry";
import { claimRun, finishRun, settleRun } from "@/lib/automations/store/runs";
import { loadAutomationState, loadVersion } from "@/lib/automations/store/versions";
import { EntityNotFoundError, loadRunEntity } from "./entity";
import { evaluatorFor } from "./evaluate";
import { executeSteps, type LegContext } from "./execute-shared";
import { planFrom } from "./interpreter";

/** Why a run that was queued will not act: the merchant switched the automation off first. */
export const NOT_ACTIVE_REASON = {
  paused: "The automation was paused before this run started.",
  archived: "The automation was archived before this run started.",
  draft: "The automation is not published.",
  deleted: "The automation was deleted before this run started.",
} as const;

/**
 * The first leg of a run (the `automation_execute` job): claim the run, check the automation is
 * still on, load the entity with its status pinned to the one the event fired for, plan from the
 * trigger, execute, settle. Safe to run twice: steps and deliveries are keyed per (run, node, leg).
 */
export async function executeRun(runId: string): Promise<void> {
  const db = getDb();
  const run = await claimRun(db, runId);
  if (!run) return;
  try {
    const automation = await loadAutomationState(db, run.tenantId, run.automationId);
    if (!automation || automation.status !== "active") {
      const reason =
        NOT_ACTIVE_REASON[automation?.status === "active" || !automation ? "deleted" : automation.status];
      await finishRun(db, run.id, "cancelled", { reason });
      return;
    }
    const version = await loadVersion(db, run.automationId, run.automationVersion);
    if (!version) throw new Error(`Version ${run.automationVersion} of the automation is missing.`);

    const entity = await loadRunEntity(db, run.tenantId, run.event, { pinStatus: true });
    const leg: LegContext = {
      tenantId: run.tenantId,
      runId: run.id,
      automationId: run.automationId,
      automationName: version.name,
      automationVersion: version.version,
      leg: 1,
      event: run.event,
      entity,
      steps: {},
      now: new Date(),
    };
    const plan = planFrom(version.graph, run.triggerNodeId, registry, evaluatorFor(leg));
    await executeSteps(leg, plan);
    await settleRun(db, run.id);
  } catch (error) {
    if (error instanceof EntityNotFoundError) {
      await finishRun(db, run.id, "failed", { error: error.message });
      return;
    }
    // Anything else may be transient (the database went away): let graphile-worker retry the job,
    // which is safe because every effect is keyed. The reaper fails the run if retries run out.
    throw error;
  }
}
