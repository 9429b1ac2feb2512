import { and, asc, desc, eq, lt, or } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps, automationRunWaits, type RunStatus } from "@/lib/db/schema";
import { waitView } from "./waits";
import { isUuid, notFound, parseOrThrow } from "@/lib/errors";
import { decodeCursor, encodeCursor } from "@/lib/pagination";

const RUN_STATUSES = ["queued", "running", "waiting", "succeeded", "partial", "failed", "cancelled"] as const;

export const runsQuery = z.object({
  automationId: z.uuid("must be an automation id").optional(),
  status: z.enum(RUN_STATUSES, `must be one of ${RUN_STATUSES.join(", ")}`).optional(),
  domain: z.string().max(50).optional(),
  entityId: z.string().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface RunSummary {
  id: string;
  automationId: string;
  automationVersion: number;
  status: RunStatus;
  eventType: string;
  domain: string;
  entityId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  createdAt: string;
  /** While waiting: when the earliest pending wait is due. */
  resumeAt: string | null;
  reason: string | null;
  error: string | null;
}

function summary(r: typeof automationRuns.$inferSelect): RunSummary {
  return {
    id: r.id,
    automationId: r.automationId,
    automationVersion: r.automationVersion,
    status: r.status,
    eventType: r.event.type,
    domain: r.domain,
    entityId: r.entityId,
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    durationMs: r.durationMs,
    createdAt: r.createdAt.toISOString(),
    resumeAt: r.resumeAt?.toISOString() ?? null,
    reason: r.reason,
    error: r.error,
  };
}

/** Runs, newest first, keyset-paginated on (created_at, id); every filter is served by an index. */
export async function listRuns(tenantId: string, query: unknown = {}) {
  const q = parseOrThrow(runsQuery, query, "The runs query is invalid");
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const rows = await getDb()
    .select()
    .from(automationRuns)
    .where(
      and(
        eq(automationRuns.tenantId, tenantId),
        q.automationId ? eq(automationRuns.automationId, q.automationId) : undefined,
        q.status ? eq(automationRuns.status, q.status) : undefined,
        q.domain ? eq(automationRuns.domain, q.domain) : undefined,
        q.entityId ? eq(automationRuns.entityId, q.entityId) : undefined,
        after
          ? or(
              lt(automationRuns.createdAt, after.at),
              and(eq(automationRuns.createdAt, after.at), lt(automationRuns.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map(summary),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}

/** One run with every step of every leg, in order. */
export async function getRun(tenantId: string, id: string) {
  if (!isUuid(id)) throw notFound("That run");
  const [run] = await getDb()
    .select()
    .from(automationRuns)
    .where(and(eq(automationRuns.tenantId, tenantId), eq(automationRuns.id, id)));
  if (!run) throw notFound("That run");
  const steps = await getDb()
    .select()
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, run.id))
    .orderBy(
      asc(automationRunSteps.leg),
      asc(automationRunSteps.position),
      asc(automationRunSteps.startedAt),
    );
  const waits = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.tenantId, tenantId), eq(automationRunWaits.runId, run.id)))
    .orderBy(asc(automationRunWaits.createdAt));
  return {
    ...summary(run),
    event: run.event,
    legs: run.legs,
    steps: steps.map((s) => ({
      id: s.id,
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      category: s.category,
      status: s.status,
      leg: s.leg,
      input: s.input,
      output: s.output,
      error: s.error,
      reason: s.reason,
      startedAt: s.startedAt.toISOString(),
      finishedAt: s.finishedAt?.toISOString() ?? null,
      durationMs: s.durationMs,
    })),
    waits: waits.map(waitView),
  };
}
