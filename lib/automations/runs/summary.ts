import { and, eq } from "drizzle-orm";
import { automationRuns, entities, type RunStatus } from "@/lib/db/schema";
import { runEntityTitle } from "@/lib/domains/labels";
import type { WaitFate } from "@/lib/automations/waits/fate";
import type { NextWait } from "./timeline";

/**
 * A run as the run history lists it (`GET /api/v1/runs`), and the head of its detail: the run's
 * row, its automation's name and its record's label.
 */
export interface RunSummary {
  id: string;
  automationId: string;
  /** The automation's current name (null when it was deleted since). */
  automationName: string | null;
  automationVersion: number;
  status: RunStatus;
  eventType: string;
  domain: string;
  entityId: string | null;
  /** The record as merchants name it ("Order #1022 · €65.00 · ada@example.com"); null when the run is about no record. */
  entityLabel: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  /**
   * A settled run: how many actions it took across its legs (each action's last attempt). 0 on a
   * succeeded run is "Nothing to do": every branch stopped at a condition. Null while in flight,
   * and for a run that ended otherwise.
   */
  actionsTaken: number | null;
  createdAt: string;
  /** While waiting: when the earliest pending wait is due (a column kept by pause, resume and settle). */
  resumeAt: string | null;
  /** While waiting: what the earliest pending wait is (a retry says which attempt is next). */
  nextWait: NextWait | null;
  reason: string | null;
  error: string | null;
  /** Waiting at an approval nobody has decided yet ("Awaiting approval" instead of "Waiting"). */
  awaitingApproval: boolean;
  /** While waiting: what its earliest pending wait will do when it wakes, as things stand. */
  fate: WaitFate | null;
  /** A re-run: the run it repeats. */
  rerunOf: string | null;
  /** Why a cap held it, when one did (kept after it was released or discarded). */
  heldReason: string | null;
  /** A held run someone released: when and who. */
  releasedAt: string | null;
  releasedBy: string | null;
}

export type RunRow = typeof automationRuns.$inferSelect;

/** The subject's joined row: the record's data, or null when it has been deleted since. */
export const entityJoin = () =>
  and(
    eq(entities.tenantId, automationRuns.tenantId),
    eq(entities.domain, automationRuns.domain),
    eq(entities.id, automationRuns.entityId),
  );

export function summary(
  r: RunRow,
  automationName: string | null,
  next: NextWait | null = null,
  entityData: Record<string, unknown> | null = null,
): RunSummary {
  return {
    id: r.id,
    automationId: r.automationId,
    automationName,
    automationVersion: r.automationVersion,
    status: r.status,
    eventType: r.event.type,
    domain: r.domain,
    entityId: r.entityId,
    entityLabel: runEntityTitle(r.domain, r.entityId, entityData),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    durationMs: r.durationMs,
    actionsTaken: r.actionsTaken,
    createdAt: r.createdAt.toISOString(),
    resumeAt: r.status === "waiting" ? (r.resumeAt?.toISOString() ?? null) : null,
    nextWait: r.status === "waiting" ? next : null,
    // A held run's reason is the cap's until someone releases or discards it.
    reason: r.reason ?? (r.status === "held" ? r.heldReason : null),
    error: r.error,
    awaitingApproval: false,
    fate: null,
    rerunOf: r.rerunOf,
    heldReason: r.heldReason,
    releasedAt: r.releasedAt?.toISOString() ?? null,
    releasedBy: r.releasedBy,
  };
}
