import { and, eq, gt, sql } from "drizzle-orm";
import { TILLFLOW_ACTOR } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import { auditEvents, automationRuns, automations } from "@/lib/db/schema";
import { HOURLY_HOLD_MARK } from "@/lib/automations/caps/caps";
import { enqueueJobs } from "@/lib/jobs";
import { syncSchedules } from "./schedule-sync";
import { automationSubject, loadRow } from "./read";
import { impactOf } from "./impact";

/**
 * The `automation_storm` job: pauses an automation whose hourly cap held a run, when its caps say
 * `pauseOnStorm`. Checked again here, not trusted from the job: the caps may have changed, someone
 * may have paused (or re-activated) it since, or the statement that held the run may have been
 * rolled back. A person re-activating it later is not paused again by the same storm's job (its
 * key is done); a new held run adds a new one.
 *
 * The runs the cap let through are the merchant's own limit, not the storm: pausing now would
 * cancel those not yet started ("off means off"). So while any of them is still queued the pause
 * waits a second and looks again; the storm's other runs are held meanwhile, so nothing gets past.
 */
export async function pauseOnStorm(automationId: string): Promise<"paused" | "deferred" | "nothing"> {
  return getDb().transaction(async (tx) => {
    const [found] = await tx
      .select({ tenantId: automations.tenantId })
      .from(automations)
      .where(eq(automations.id, automationId));
    if (!found) return "nothing";
    const row = await loadRow(tx, found.tenantId, automationId, true);
    const max = row.caps?.maxRunsPerHour;
    if (row.status !== "active" || !row.caps?.pauseOnStorm || max === undefined) return "nothing";
    const [held] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(automationRuns)
      .where(
        and(
          eq(automationRuns.tenantId, row.tenantId),
          eq(automationRuns.automationId, row.id),
          eq(automationRuns.status, "held"),
          gt(automationRuns.createdAt, sql`now() - interval '1 hour'`),
          sql`${automationRuns.heldReason} like ${`%${HOURLY_HOLD_MARK}%`}`,
        ),
      );
    if (!held || held.n === 0) return "nothing";
    const [admitted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(automationRuns)
      .where(
        and(
          eq(automationRuns.tenantId, row.tenantId),
          eq(automationRuns.automationId, row.id),
          eq(automationRuns.status, "queued"),
        ),
      );
    if (admitted && admitted.n > 0) {
      await enqueueJobs(tx, [
        {
          task: "automation_storm",
          payload: { automationId },
          jobKey: `storm:${automationId}`,
          runAt: new Date(Date.now() + 1_000),
        },
      ]);
      return "deferred";
    }
    const impact = await impactOf(row, "pause");
    const [updated] = await tx
      .update(automations)
      .set({ status: "paused", updatedAt: new Date() })
      .where(eq(automations.id, row.id))
      .returning();
    await syncSchedules(tx, updated!);
    await tx.insert(auditEvents).values({
      tenantId: row.tenantId,
      actor: TILLFLOW_ACTOR,
      action: "automation.paused_on_storm",
      ...automationSubject(row),
      detail: {
        name: row.name,
        version: row.version,
        maxRunsPerHour: max,
        held: held.n,
        impact: impact.message,
      },
    });
    return "paused";
  });
}
