import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { actorLabel, type Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { automationRunSteps, automationRunWaits, automations, entities } from "@/lib/db/schema";
import { runEntityTitle } from "@/lib/domains/labels";
import { AppError, isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { enqueueJobs } from "@/lib/jobs";
import { assertMayDecide } from "./approvals";
import { automationNames } from "@/lib/automations/store/automation-names";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/pagination/precise-cursor";
import { labelKey, stepLabels } from "@/lib/automations/engine/step-labels";
import { finishRun } from "@/lib/automations/store/runs";
import { waitFates } from "./fate";
import { resumedEarlyText } from "./resumed-early";
import { waitView, type WaitingItem, type WaitingPage, type WaitView } from "./view";
import {
  cancelWait,
  countPendingWaits,
  markRunWaiting,
  resumeTask,
  type WaitRow,
} from "@/lib/automations/store/waits";

// The views of a wait are declared in view.ts; they are imported from here as before.

async function loadWait(tenantId: string, waitId: string): Promise<WaitRow> {
  if (!isUuid(waitId)) throw notFound("That wait");
  const [wait] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.tenantId, tenantId), eq(automationRunWaits.id, waitId)));
  if (!wait) throw notFound("That wait");
  return wait;
}

/** The audit log's subject for a change to a wait, naming its run and automation. */
function waitSubject(wait: WaitRow) {
  return {
    subjectType: "wait",
    subjectId: wait.id,
    detail: { kind: wait.kind, runId: wait.runId, automationId: wait.automationId },
  };
}

function notPending(wait: WaitRow): AppError {
  return new AppError(
    409,
    "conflict",
    wait.status === "pending" ? "This wait is already resuming." : `This wait is already ${wait.status}.`,
  );
}

/**
 * Cancels one pending wait: its downstream will not run. The run ends `cancelled` unless another
 * branch of it is still waiting.
 */
export async function cancelWaitById(
  caller: Caller,
  waitId: string,
  /** False when "Cancel all" records one entry for the lot instead of one per wait. */
  { audit = true }: { audit?: boolean } = {},
): Promise<WaitView> {
  const wait = await loadWait(caller.tenant.id, waitId);
  const reason = `Cancelled by ${actorLabel(caller.actor)}.`;
  return getDb().transaction(async (tx) => {
    const cancelled = await cancelWait(tx, wait.id, reason);
    if (!cancelled) throw notPending(wait);
    if (audit) await recordAudit(tx, caller, { action: "wait.cancelled", ...waitSubject(wait) });
    // A later step is not part of its run; cancelling one leaves the run as it is.
    if (wait.kind !== "later") {
      if ((await countPendingWaits(tx, wait.runId)) === 0)
        await finishRun(tx, wait.runId, "cancelled", { reason });
      else await markRunWaiting(tx, wait.runId);
    }
    return waitView(cancelled);
  });
}

/** Cancels every pending wait of an automation (the Waiting list's "Cancel all"). */
/**
 * Cancels every pending wait of one automation, or of the whole shop when `automationId` is null,
 * one at a time through the same path as a single cancel (a wait resumed meanwhile is skipped).
 */
export async function cancelAllWaits(
  caller: Caller,
  automationId: string | null,
): Promise<{ cancelled: number }> {
  if (automationId !== null && !isUuid(automationId)) throw notFound("That automation");
  if (automationId !== null) {
    // Another shop's automation is "not found", like everything else of another shop.
    const [own] = await getDb()
      .select({ id: automations.id })
      .from(automations)
      .where(and(eq(automations.tenantId, caller.tenant.id), eq(automations.id, automationId)));
    if (!own) throw notFound("That automation");
  }
  const pending = await getDb()
    .select({ id: automationRunWaits.id })
    .from(automationRunWaits)
    .where(
      and(
        eq(automationRunWaits.tenantId, caller.tenant.id),
        automationId === null ? undefined : eq(automationRunWaits.automationId, automationId),
        eq(automationRunWaits.status, "pending"),
      ),
    );
  let cancelled = 0;
  for (const { id } of pending) {
    try {
      await cancelWaitById(caller, id, { audit: false });
      cancelled++;
    } catch (error) {
      // Resumed between our read and the cancel: not an error for "cancel all".
      if (!(error instanceof AppError && error.status === 409)) throw error;
    }
  }
  // One entry for the lot: each wait is cancelled in its own transaction, so this one follows them.
  await recordAudit(getDb(), caller, {
    action: "waits.cancelled_all",
    subjectType: automationId === null ? "shop" : "automation",
    subjectId: automationId ?? caller.tenant.id,
    detail: { cancelled },
  });
  return { cancelled };
}

/**
 * Runs a pending wait now, as if its time had come: the same job with the same guards (automation
 * still on, entity loaded fresh), only earlier.
 */
export async function resumeNow(caller: Caller, waitId: string): Promise<WaitView> {
  const wait = await loadWait(caller.tenant.id, waitId);
  if (wait.status !== "pending") throw notPending(wait);
  // For an approval this decides it as timed out: only someone who may decide it can, and who did
  // is kept as for any decision (the decision itself stays empty: the run follows 'Timed out').
  const asked = wait.kind === "approval" ? await assertMayDecide(getDb(), caller, wait) : null;
  return getDb().transaction(async (tx) => {
    const now = new Date();
    const decider = asked ? { decidedBy: actorLabel(caller.actor), decidedAt: now } : {};
    // A Wait, a retry or a Later step keeps who ended it and how early (an approval keeps its
    // decider, a wait for an event its step's `resumedNowBy`).
    const early =
      wait.kind === "approval" || wait.kind === "event"
        ? {}
        : { reason: resumedEarlyText(actorLabel(caller.actor), wait.resumeAt, now) };
    const [moved] = await tx
      .update(automationRunWaits)
      .set({ resumeAt: now, ...decider, ...early })
      .where(
        and(
          eq(automationRunWaits.id, wait.id),
          eq(automationRunWaits.status, "pending"),
          asked ? isNull(automationRunWaits.decidedBy) : undefined,
        ),
      )
      .returning();
    if (!moved) throw notPending(wait);
    if (asked && wait.stepId)
      await tx
        .update(automationRunSteps)
        .set({ output: { ...asked, decidedBy: actorLabel(caller.actor), decidedAt: now.toISOString() } })
        .where(eq(automationRunSteps.id, wait.stepId));
    // A wait for an event stops waiting: its step keeps who chose so, to say it did not time out.
    if (wait.kind === "event" && wait.stepId)
      await tx
        .update(automationRunSteps)
        .set({
          output: sql`coalesce(${automationRunSteps.output}, '{}') || ${JSON.stringify({ resumedNowBy: actorLabel(caller.actor) })}::jsonb`,
        })
        .where(eq(automationRunSteps.id, wait.stepId));
    // Same job key: graphile-worker moves the existing job instead of adding a second one.
    await enqueueJobs(tx, [
      { task: resumeTask(wait.kind), payload: { waitId: wait.id }, runAt: now, jobKey: wait.id },
    ]);
    if (wait.kind !== "later") await markRunWaiting(tx, wait.runId);
    await recordAudit(tx, caller, { action: "wait.resumed_now", ...waitSubject(wait) });
    return waitView(moved);
  });
}

export const waitingQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * The Waiting list: pending waits soonest first (keyset on resume time), and the most recent waits
 * dropped because the automation was off or edited, with that reason.
 */
export async function listWaiting(
  tenantId: string,
  automationId: string | null,
  query: unknown = {},
): Promise<WaitingPage> {
  const q = parseOrThrow(waitingQuery, query, "The waiting query is invalid");
  if (automationId) {
    if (!isUuid(automationId)) throw notFound("That automation");
    const [found] = await getDb()
      .select({ id: automations.id })
      .from(automations)
      .where(and(eq(automations.tenantId, tenantId), eq(automations.id, automationId)));
    if (!found) throw notFound("That automation");
  }
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  const w = automationRunWaits;
  const scope = and(eq(w.tenantId, tenantId), automationId ? eq(w.automationId, automationId) : undefined);
  const rows = await getDb()
    .select({ wait: w, at: sql<string>`${sql.raw(preciseTimestamp('"automation_run_waits"."resume_at"'))}` })
    .from(w)
    .where(
      and(
        scope,
        // Literal, not a parameter: the partial indexes' predicates must match in a generic plan too.
        sql`${w.status} = 'pending'`,
        after ? sql`(${w.resumeAt}, ${w.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(w.resumeAt), asc(w.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const dropped = after
    ? []
    : await getDb()
        .select()
        .from(w)
        .where(and(scope, sql`${w.status} in ('cancelled', 'failed')`))
        .orderBy(sql`${w.resolvedAt} desc nulls last`)
        .limit(20);
  const names = await automationNames(tenantId, [
    ...page.map((row) => row.wait.automationId),
    ...dropped.map((d) => d.automationId),
  ]);
  const fates = await waitFates(
    tenantId,
    page.map((row) => row.wait),
  );
  const labels = await stepLabels(tenantId, [...page.map((row) => row.wait), ...dropped]);
  const records = await recordsOf(tenantId, [...page.map((row) => row.wait), ...dropped]);
  const item = (row: WaitRow): WaitingItem => ({
    ...waitView(row),
    label: labels.get(labelKey(row)) ?? row.nodeType,
    entityLabel: runEntityTitle(
      row.event.domain,
      row.event.entityId,
      records.get(`${row.event.domain}:${row.event.entityId}`) ?? null,
    ),
    automationName: names.get(row.automationId) ?? null,
    fate: row.status === "pending" ? (fates.get(row.id) ?? null) : null,
  });
  return {
    items: page.map((row) => item(row.wait)),
    nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.wait.id) : null,
    dropped: dropped.map(item),
  };
}

/** Pending waits of an automation grouped by the version and step they wait at, for impact sentences. */
export async function waitingByNode(
  automationId: string,
): Promise<{ automationVersion: number; nodeId: string; nodeType: string; kind: string; count: number }[]> {
  const rows = await getDb()
    .select({
      automationVersion: automationRunWaits.automationVersion,
      nodeId: automationRunWaits.nodeId,
      nodeType: automationRunWaits.nodeType,
      kind: automationRunWaits.kind,
      count: sql<number>`count(*)::int`,
    })
    .from(automationRunWaits)
    .where(
      and(
        eq(automationRunWaits.automationId, automationId),
        eq(automationRunWaits.status, "pending"),
        ne(automationRunWaits.kind, "later"),
      ),
    )
    .groupBy(
      automationRunWaits.automationVersion,
      automationRunWaits.nodeId,
      automationRunWaits.nodeType,
      automationRunWaits.kind,
    )
    .orderBy(automationRunWaits.automationVersion, automationRunWaits.nodeId);
  return rows;
}

/** The records waits are about, keyed `domain:id`, in one query (for their labels). */
async function recordsOf(tenantId: string, waits: WaitRow[]): Promise<Map<string, Record<string, unknown>>> {
  const ids = [...new Set(waits.flatMap((w) => (w.event.entityId ? [w.event.entityId] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await getDb()
    .select({ domain: entities.domain, id: entities.id, data: entities.data })
    .from(entities)
    .where(and(eq(entities.tenantId, tenantId), inArray(entities.id, ids)));
  return new Map(rows.map((r) => [`${r.domain}:${r.id}`, r.data]));
}
