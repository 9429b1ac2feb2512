import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { uuidArray } from "@/lib/db/array-literal";
import { auditEvents, automationBrakes, automations } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { actorLabel, assertRole, type Caller } from "@/lib/identity/caller";
import { enqueueJobs } from "@/lib/jobs";
import { resumeTask } from "@/lib/automations/store/waits";
import { syncSchedules } from "@/lib/automations/lifecycle/schedule-sync";

/**
 * The emergency brake (issue 53): one switch that pauses every active automation of a shop at
 * once and later resumes exactly those. See README.md beside this file.
 */

export interface BrakeState {
  /** Whether the brake is on. */
  on: boolean;
  engagedAt: string | null;
  engagedBy: string | null;
  /** How many automations it paused (and will resume). */
  automations: number;
}

export interface BrakeImpact {
  /** Active automations the brake would pause. */
  activeAutomations: number;
  /** Runs waiting in those automations: they hold until the brake is released. */
  waitingRuns: number;
  /** Schedules of those automations: they do not fire while it is on. */
  schedules: number;
  /** "12 active automations; 340 runs waiting will hold until you resume; schedules will not fire." */
  sentence: string;
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What pulling the brake now would do, in numbers and in a sentence for the confirm dialog. */
export async function brakeImpact(tenantId: string, db: DbOrTx = getDb()): Promise<BrakeImpact> {
  const [row] = await db.execute<{ automations: number; waiting: number; schedules: number }>(sql`
    select
      (select count(*)::int from automations a where a.tenant_id = ${tenantId} and a.status = 'active') as automations,
      (select count(*)::int from automation_runs r join automations a on a.id = r.automation_id
        where r.tenant_id = ${tenantId} and r.status = 'waiting' and a.status = 'active') as waiting,
      (select count(*)::int from automation_schedules s where s.tenant_id = ${tenantId}) as schedules`);
  const activeAutomations = Number(row?.automations ?? 0);
  const waitingRuns = Number(row?.waiting ?? 0);
  const schedules = Number(row?.schedules ?? 0);
  const parts = [
    plural(activeAutomations, "active automation", "active automations"),
    `${plural(waitingRuns, "run", "runs")} waiting will hold until you resume`,
    schedules > 0 ? "schedules will not fire" : "no schedule is due to fire",
  ];
  return { activeAutomations, waitingRuns, schedules, sentence: `${parts.join("; ")}.` };
}

/** The shop's brake, on or off. */
export async function brakeState(tenantId: string, db: DbOrTx = getDb()): Promise<BrakeState> {
  const [row] = await db.select().from(automationBrakes).where(eq(automationBrakes.tenantId, tenantId));
  return row
    ? {
        on: true,
        engagedAt: row.engagedAt.toISOString(),
        engagedBy: row.engagedBy,
        automations: row.automationIds.length,
      }
    : { on: false, engagedAt: null, engagedBy: null, automations: 0 };
}

/**
 * Pulls the brake: pauses every active automation of the shop in one transaction (their
 * schedules' rows go, so nothing fires), remembers which in `automation_brakes`, and audits it.
 * Waiting runs of those automations hold (claim.ts leaves their waits pending) instead of being
 * cancelled as a paused automation's would be. Admins only; a second pull is a 409.
 */
export async function engageBrake(caller: Caller): Promise<{ brake: BrakeState; impact: BrakeImpact }> {
  assertRole(caller, "admin");
  return engageBrakeAs(caller.tenant.id, actorLabel(caller.actor));
}

/** Who the audit log names for the operator's CLI. */
export const OPERATOR_ACTOR = "Operator (tillflow CLI)";

/** `engageBrake` for the operator's CLI, or a caller already checked: `by` as the audit log names them. */
export async function engageBrakeAs(
  tenantId: string,
  by: string,
): Promise<{ brake: BrakeState; impact: BrakeImpact }> {
  return getDb().transaction(async (tx) => {
    const inserted = await tx
      .insert(automationBrakes)
      .values({ tenantId, automationIds: [], engagedBy: by })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) {
      throw new AppError(
        409,
        "conflict",
        "The emergency brake is already on. Release it to resume automations.",
      );
    }
    const impact = await brakeImpact(tenantId, tx);
    const paused = await tx
      .update(automations)
      .set({ status: "paused", updatedAt: new Date() })
      .where(and(eq(automations.tenantId, tenantId), eq(automations.status, "active")))
      .returning();
    for (const row of paused) await syncSchedules(tx, row);
    const ids = paused.map((row) => row.id);
    await tx
      .update(automationBrakes)
      .set({ automationIds: ids })
      .where(eq(automationBrakes.tenantId, tenantId));
    await tx.insert(auditEvents).values({
      tenantId,
      actor: by,
      action: "automations.brake_engaged",
      subjectType: "shop",
      subjectId: tenantId,
      detail: {
        automations: ids.length,
        waitingRuns: impact.waitingRuns,
        names: paused.map((row) => row.name).slice(0, 50),
      },
    });
    return { brake: await brakeState(tenantId, tx), impact };
  });
}

/**
 * Releases the brake: activates exactly the automations it paused that are still paused (one a
 * person activated, archived or deleted meanwhile is left as it is), their schedules firing next
 * after now, and gives every wait of theirs that came due while the brake held it its job back,
 * at its own due time, so they resume in the order they fell due — each once (the job is keyed by
 * the wait, and claiming a wait is a status change from pending). Admins only; 409 when it is off.
 */
export async function releaseBrake(caller: Caller): Promise<BrakeRelease> {
  assertRole(caller, "admin");
  return releaseBrakeAs(caller.tenant.id, actorLabel(caller.actor));
}

export interface BrakeRelease {
  brake: BrakeState;
  /** Automations activated again. */
  resumedAutomations: number;
  /** Waits that fell due while the brake held them, given their jobs back. */
  heldWaits: number;
}

/** `releaseBrake` for the operator's CLI, or a caller already checked. */
export async function releaseBrakeAs(tenantId: string, by: string): Promise<BrakeRelease> {
  return getDb().transaction(async (tx) => {
    const [brake] = await tx
      .delete(automationBrakes)
      .where(eq(automationBrakes.tenantId, tenantId))
      .returning();
    if (!brake) throw new AppError(409, "conflict", "The emergency brake is not on.");
    const resumed =
      brake.automationIds.length === 0
        ? []
        : await tx
            .update(automations)
            .set({ status: "active", activatedAt: new Date(), updatedAt: new Date() })
            .where(
              and(
                eq(automations.tenantId, tenantId),
                inArray(automations.id, brake.automationIds),
                eq(automations.status, "paused"),
              ),
            )
            .returning();
    for (const row of resumed) await syncSchedules(tx, row);
    const held =
      resumed.length === 0
        ? []
        : await tx.execute<{ id: string; kind: string; resume_at: string }>(sql`
            select w.id::text as id, w.kind, w.resume_at from automation_run_waits w
            where w.tenant_id = ${tenantId} and w.automation_id = any(${uuidArray(resumed.map((r) => r.id))}::uuid[])
              and w.status = 'pending' and w.resume_at <= now()
            order by w.resume_at, w.id`);
    await enqueueJobs(
      tx,
      held.map((w) => ({
        task: resumeTask(w.kind),
        payload: { waitId: w.id },
        runAt: new Date(w.resume_at),
        jobKey: w.id,
      })),
    );
    await tx.insert(auditEvents).values({
      tenantId,
      actor: by,
      action: "automations.brake_released",
      subjectType: "shop",
      subjectId: tenantId,
      detail: { automations: resumed.length, heldWaits: held.length },
    });
    return {
      brake: await brakeState(tenantId, tx),
      resumedAutomations: resumed.length,
      heldWaits: held.length,
    };
  });
}
