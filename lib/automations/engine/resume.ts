import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { registry } from "@/lib/automations/nodes/registry";
import { finishRun, settleRun } from "@/lib/automations/store/runs";
import { loadAutomationState, loadVersion, type PublishedVersion } from "@/lib/automations/store/versions";
import {
  cancelPendingWaits,
  claimWait,
  completeStep,
  getWait,
  type WaitRow,
} from "@/lib/automations/store/waits";
import { EntityNotFoundError, loadRunEntity } from "./entity";
import { evaluatorFor } from "./evaluate";
import { executeSteps, type LegContext } from "./execute-shared";
import { planFrom } from "./interpreter";

/** Why a waking run does not continue (SPEC §2 wake table). */
export const WAKE_REASONS = {
  paused: "The automation was paused while this run was waiting.",
  archived: "The automation was archived while this run was waiting.",
  deleted: "The automation was deleted while this run was waiting.",
  draft: "The automation was unpublished while this run was waiting.",
  edited: "The automation was edited while this run was waiting.",
} as const;

type Decision = { go: true; version: PublishedVersion; note: string | null } | { go: false; reason: string };

/** Applies the wake table: automation off → stop; same version → go on; newer → its in-flight policy. */
async function decide(wait: WaitRow): Promise<Decision> {
  const db = getDb();
  const automation = await loadAutomationState(db, wait.tenantId, wait.automationId);
  if (!automation) return { go: false, reason: WAKE_REASONS.deleted };
  if (automation.status !== "active") return { go: false, reason: WAKE_REASONS[automation.status] };
  const started = await loadVersion(db, wait.automationId, wait.automationVersion);
  if (automation.version === wait.automationVersion) {
    return started ? { go: true, version: started, note: null } : { go: false, reason: WAKE_REASONS.deleted };
  }
  switch (automation.inFlightPolicy) {
    case "cancel":
      return { go: false, reason: WAKE_REASONS.edited };
    case "finish_on_started_version":
      return started
        ? {
            go: true,
            version: started,
            note: `Finished on version ${wait.automationVersion}, the version it started on.`,
          }
        : { go: false, reason: WAKE_REASONS.edited };
    case "move_to_latest": {
      const latest = await loadVersion(db, wait.automationId, automation.version);
      if (!latest || !latest.graph.nodes.some((n) => n.id === wait.nodeId)) {
        return {
          go: false,
          reason: `The automation was edited while this run was waiting, and version ${automation.version} no longer has the step it was waiting at.`,
        };
      }
      return { go: true, version: latest, note: `Moved to version ${automation.version} when it woke.` };
    }
  }
}

/**
 * The `automation_resume` job. Claims the wait (a redelivery after the leg finished is a no-op),
 * applies the wake table, loads the entity fresh with no status pin, and runs the downstream of
 * the wait through the same `executeSteps` as the first leg (a second wait pauses again). Any
 * error after the claim fails the wait step and the run: nothing is left hanging in `waiting`.
 */
export async function resumeWait(waitId: string): Promise<"resumed" | "skipped" | "noop"> {
  const db = getDb();
  let wait = await claimWait(db, waitId);
  if (!wait) {
    // Claimed before: by a leg that finished (nothing to do), or by one a crash cut short, whose
    // run is still `running` — then run the leg again: its steps and deliveries are keyed.
    const earlier = await getWait(db, waitId);
    const [run] =
      earlier?.status === "resumed"
        ? await db.select().from(automationRuns).where(eq(automationRuns.id, earlier.runId))
        : [];
    if (!earlier || !run || run.status !== "running" || earlier.resumeLeg !== run.legs) {
      console.info(`Resume of wait ${waitId} was already handled; nothing to do.`);
      return "noop";
    }
    wait = earlier;
  }
  try {
    const decision = await decide(wait);
    if (!decision.go) {
      await db.transaction(async (tx) => {
        await completeStep(tx, wait.stepId, "skipped", { reason: decision.reason });
        await cancelPendingWaits(tx, wait.runId, decision.reason);
        await finishRun(tx, wait.runId, "cancelled", { reason: decision.reason });
      });
      return "skipped";
    }
    const entity = await loadRunEntity(db, wait.tenantId, wait.event, { pinStatus: false });
    if (decision.note) {
      await db
        .update(automationRuns)
        .set({ automationVersion: decision.version.version })
        .where(eq(automationRuns.id, wait.runId));
    }
    await completeStep(db, wait.stepId, "success", { reason: decision.note });
    const leg: LegContext = {
      tenantId: wait.tenantId,
      runId: wait.runId,
      automationId: wait.automationId,
      automationName: decision.version.name,
      automationVersion: decision.version.version,
      leg: wait.resumeLeg!,
      event: wait.event,
      entity,
      steps: {},
      now: new Date(),
    };
    const plan = planFrom(decision.version.graph, wait.nodeId, registry, evaluatorFor(leg));
    await executeSteps(leg, plan);
    await settleRun(db, wait.runId);
    return "resumed";
  } catch (error) {
    const message =
      error instanceof EntityNotFoundError
        ? error.message
        : `The run could not continue after the wait: ${error instanceof Error ? error.message : String(error)}`;
    await db.transaction(async (tx) => {
      await completeStep(tx, wait.stepId, "failed", { error: message });
      await cancelPendingWaits(tx, wait.runId, "The run failed in another branch.");
      await finishRun(tx, wait.runId, "failed", { error: message });
    });
    if (!(error instanceof EntityNotFoundError)) console.error(`Resume of wait ${waitId} failed`, error);
    return "skipped";
  }
}
