import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { getDb, type Tx } from "@/lib/db/client";
import { automationRuns, automations } from "@/lib/db/schema";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { actorLabel, assertRole, type Caller } from "@/lib/identity/caller";
import { releaseHeldRuns } from "@/lib/automations/engine/start/release";

/**
 * Held runs (SPEC §2 "Alerts and caps"): a run a cap held waits in its automation's Held list
 * until a person releases it — it then starts exactly once, as if just triggered, on the version
 * it was held on — or discards it (`cancelled`, with who discarded it as the reason). One at a
 * time or in bulk; a second release or discard of the same run is a 409 that says what happened.
 */

/** The most held runs one bulk release or discard takes. */
export const MAX_BULK_HELD = 1_000;

export const heldFilter = z.strictObject({
  automationId: z.uuid("automationId must be an automation's id").optional(),
  ids: z.array(z.uuid("ids must be run ids")).min(1).max(MAX_BULK_HELD).optional(),
});

type Verb = "release" | "discard";

export interface HeldOutcome {
  runIds: string[];
  impact: string;
}

const runsWord = (n: number) => (n === 1 ? "1 held run" : `${n.toLocaleString("en-US")} held runs`);

/** Why a run that is not held cannot be released or discarded. */
function notHeld(run: { status: string; releasedAt: Date | null; heldReason: string | null }, verb: Verb) {
  const was =
    run.heldReason === null
      ? "was never held"
      : run.releasedAt !== null
        ? "was already released"
        : run.status === "cancelled"
          ? "was already discarded"
          : "is no longer held";
  return new AppError(409, "conflict", `This run ${was}, so it cannot be ${verb}d.`);
}

/** Refuses to release runs of an automation that is not on: they would be cancelled as they start. */
async function assertActive(tx: Tx, tenantId: string, automationIds: string[]) {
  if (automationIds.length === 0) return;
  const off = await tx
    .select({ name: automations.name, status: automations.status })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        inArray(automations.id, automationIds),
        sql`${automations.status} <> 'active'`,
      ),
    );
  if (off.length > 0)
    throw new AppError(
      409,
      "conflict",
      `'${off[0]!.name}' is ${off[0]!.status}; activate it first, then release its held runs.`,
    );
}

/**
 * Moves the held runs `where` picks out of `held`, in one statement; returns those moved. A release
 * starts them through the engine (engine/start/release.ts: their jobs in the same statement, not
 * capped again); a discard cancels them, with who discarded them as the reason.
 */
async function moveHeld(tx: Tx, caller: Caller, where: SQL, verb: Verb) {
  const who = actorLabel(caller.actor);
  if (verb === "release") return releaseHeldRuns(tx, caller.tenant.id, who, where);
  const rows = await tx.execute<{ id: string; automation_id: string }>(sql`
    update ${automationRuns} set status = 'cancelled', finished_at = now(),
      reason = ${`Discarded by ${who}; it was held by a cap.`}, updated_at = now()
    where ${automationRuns.tenantId} = ${caller.tenant.id} and ${automationRuns.status} = 'held' and ${where}
    returning id, automation_id`);
  return rows.map((r) => ({ id: r.id, automationId: r.automation_id }));
}

/** Releases (starts) or discards one held run (editor). */
export async function settleHeldRun(caller: Caller, runId: string, verb: Verb): Promise<HeldOutcome> {
  assertRole(caller, "editor");
  if (!isUuid(runId)) throw notFound("That run");
  return getDb().transaction(async (tx) => {
    const [run] = await tx
      .select({
        status: automationRuns.status,
        automationId: automationRuns.automationId,
        heldReason: automationRuns.heldReason,
        releasedAt: automationRuns.releasedAt,
      })
      .from(automationRuns)
      .where(and(eq(automationRuns.tenantId, caller.tenant.id), eq(automationRuns.id, runId)))
      .for("update");
    if (!run) throw notFound("That run");
    if (run.status !== "held") throw notHeld(run, verb);
    if (verb === "release") await assertActive(tx, caller.tenant.id, [run.automationId]);
    const moved = await moveHeld(tx, caller, sql`${automationRuns.id} = ${runId}`, verb);
    await recordAudit(tx, caller, {
      action: verb === "release" ? "run.released" : "run.discarded",
      subjectType: "automation",
      subjectId: run.automationId,
      detail: { runId },
    });
    return {
      runIds: moved.map((r) => r.id),
      impact: verb === "release" ? "The run was released and starts now." : "The run was discarded.",
    };
  });
}

/** Releases or discards every held run a filter picks (editor): an automation's, or by ids. */
export async function settleHeldRuns(caller: Caller, input: unknown, verb: Verb): Promise<HeldOutcome> {
  assertRole(caller, "editor");
  const filter = parseOrThrow(heldFilter, input ?? {}, "That filter is not valid");
  return getDb().transaction(async (tx) => {
    if (filter.automationId) {
      const [found] = await tx
        .select({ id: automations.id })
        .from(automations)
        .where(and(eq(automations.tenantId, caller.tenant.id), eq(automations.id, filter.automationId)));
      if (!found) throw notFound("That automation");
    }
    const conditions: SQL[] = [];
    if (filter.automationId) conditions.push(sql`${automationRuns.automationId} = ${filter.automationId}`);
    if (filter.ids)
      conditions.push(
        sql`${automationRuns.id} in (select json_array_elements_text(${JSON.stringify(filter.ids)}::json)::uuid)`,
      );
    const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
    if (verb === "release") {
      const automationIds = await tx
        .selectDistinct({ id: automationRuns.automationId })
        .from(automationRuns)
        .where(and(eq(automationRuns.tenantId, caller.tenant.id), eq(automationRuns.status, "held"), where));
      await assertActive(
        tx,
        caller.tenant.id,
        automationIds.map((a) => a.id),
      );
    }
    const moved = await moveHeld(
      tx,
      caller,
      sql`${where} and ${automationRuns.id} in (
      select id from ${automationRuns} where ${automationRuns.tenantId} = ${caller.tenant.id}
        and ${automationRuns.status} = 'held' and ${where}
      order by ${automationRuns.createdAt} limit ${MAX_BULK_HELD})`,
      verb,
    );
    if (moved.length > 0)
      await recordAudit(tx, caller, {
        action: verb === "release" ? "runs.released" : "runs.discarded",
        ...(filter.automationId
          ? { subjectType: "automation", subjectId: filter.automationId }
          : { subjectType: "shop", subjectId: caller.tenant.id }),
        detail: { count: moved.length },
      });
    const n = moved.length;
    const done = verb === "discard" ? "discarded" : `released; ${n === 1 ? "it starts" : "they start"} now`;
    return {
      runIds: moved.map((r) => r.id),
      impact: n === 0 ? "No runs are held." : `${runsWord(n)} ${done}.`,
    };
  });
}
