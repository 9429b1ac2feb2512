import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import {
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  automations,
  automationVersions,
  entities,
  type RunStatus,
} from "@/lib/db/schema";
import { runEntityTitle } from "@/lib/domains/labels";
import { approvalInfo } from "@/lib/automations/waits/approval-info";
import type { Graph } from "@/lib/automations/graph/schema";
import { stepLabel } from "@/lib/automations/engine/step-labels";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/precise-cursor";
import { nextWait, nextWaitOf, nodeStatuses, numberOccurrences, type NextWait } from "./timeline";
import { resolveEntitySearch, runsAboutRecords } from "./entity-filter";
import { PLATFORMS, platformCondition } from "@/lib/automations/insights/platform";
import { waitFates, type WaitFate } from "@/lib/automations/waits/fate";
import { waitView } from "@/lib/automations/waits/waits";
import { isUuid, notFound, parseOrThrow } from "@/lib/errors";

export const RUN_STATUSES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "partial",
  "failed",
  "cancelled",
] as const;

/** An instant with its offset (`2026-11-30T09:00:00+01:00`), or a date, read as midnight UTC. */
const instant = z.union(
  [z.iso.datetime({ offset: true }), z.iso.date()],
  "must be a date (2026-11-30) or a date-time with its offset (2026-11-30T09:00:00Z)",
);

export const runsQuery = z
  .object({
    automationId: z.uuid("must be an automation id").optional(),
    status: z.enum(RUN_STATUSES, `must be one of ${RUN_STATUSES.join(", ")}`).optional(),
    domain: z.string().max(50).optional(),
    /** An id, an order number ("#1022" or "1022"), an email or a customer's name. */
    entityId: z.string().max(200).optional(),
    /** Runs created at or after this instant. */
    from: instant.optional(),
    /** Runs created before this instant. */
    to: instant.optional(),
    /**
     * Whose automations' runs: `mine` (the merchant's own), `builtin` (the platform's built-in
     * jobs) or `all`. Default `all`, as before the filter existed.
     */
    platform: z.enum(PLATFORMS, `must be one of ${PLATFORMS.join(", ")}`).default("all"),
    cursor: z.string().max(500).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((q) => !q.from || !q.to || new Date(q.from) < new Date(q.to), {
    message: "from must be before to",
    path: ["to"],
  });

export type RunsQuery = z.input<typeof runsQuery>;

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
}

type RunRow = typeof automationRuns.$inferSelect;

/** The subject's joined row: the record's data, or null when it has been deleted since. */
const entityJoin = () =>
  and(
    eq(entities.tenantId, automationRuns.tenantId),
    eq(entities.domain, automationRuns.domain),
    eq(entities.id, automationRuns.entityId),
  );

function summary(
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
    createdAt: r.createdAt.toISOString(),
    resumeAt: r.status === "waiting" ? (r.resumeAt?.toISOString() ?? null) : null,
    nextWait: r.status === "waiting" ? next : null,
    reason: r.reason,
    error: r.error,
    awaitingApproval: false,
    fate: null,
    rerunOf: r.rerunOf,
  };
}

/**
 * Runs, newest first, keyset-paginated on (created_at, id). Every filter combination the UI offers
 * is one range scan of an index that starts with the tenant (see the indexes of
 * `automation_runs`); there is no OFFSET and no count.
 */
export async function listRuns(tenantId: string, query: unknown = {}) {
  const q = parseOrThrow(runsQuery, query, "The runs query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  const r = automationRuns;
  const records = q.entityId ? await resolveEntitySearch(tenantId, q.entityId, q.domain) : [];
  const rows = await getDb()
    .select({
      run: r,
      at: sql<string>`${sql.raw(preciseTimestamp('"automation_runs"."created_at"'))}`,
      automationName: automations.name,
      entityData: entities.data,
    })
    .from(r)
    .leftJoin(automations, eq(automations.id, r.automationId))
    // The labels of a page of runs come with it: one primary-key probe per run, in the same query.
    .leftJoin(entities, entityJoin())
    .where(
      and(
        eq(r.tenantId, tenantId),
        q.automationId ? eq(r.automationId, q.automationId) : undefined,
        q.status ? eq(r.status, q.status) : undefined,
        q.domain ? eq(r.domain, q.domain) : undefined,
        platformCondition(tenantId, sql`${r.automationId}`, q.platform),
        records.length > 0 ? runsAboutRecords(records) : undefined,
        q.from ? gte(r.createdAt, new Date(q.from)) : undefined,
        q.to ? lt(r.createdAt, new Date(q.to)) : undefined,
        // A row comparison, so the index serves it as one range condition.
        after ? sql`(${r.createdAt}, ${r.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    // Spelled like the indexes (DESC NULLS LAST) so the planner reads them in order instead of sorting.
    .orderBy(sql`${r.createdAt} desc nulls last`, sql`${r.id} desc nulls last`)
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const next = await nextWaits(
    tenantId,
    page.filter((row) => row.run.status === "waiting").map((row) => row.run.id),
  );
  return {
    items: page.map((row) => ({
      ...summary(row.run, row.automationName, next.get(row.run.id)?.wait ?? null, row.entityData),
      awaitingApproval: next.get(row.run.id)?.awaitingApproval ?? false,
      fate: row.run.status === "waiting" ? (next.get(row.run.id)?.fate ?? null) : null,
    })),
    nextCursor: rows.length > q.limit && last ? encodePreciseCursor(last.at, last.run.id) : null,
  };
}

/**
 * The earliest pending wait of each run, and for a retry the note on its node's last failed
 * attempt (`output.retry`): one query for a page's waiting runs, by the pending-waits index and
 * the steps' (run, node, leg) key.
 */
async function nextWaits(
  tenantId: string,
  runIds: string[],
): Promise<Map<string, { wait: NextWait; awaitingApproval: boolean; fate: WaitFate | null }>> {
  if (runIds.length === 0) return new Map();
  const w = automationRunWaits;
  // Spelled out: drizzle leaves a lone table's columns unqualified, and inside the subqueries an
  // unqualified run_id would be the subquery's own.
  const outer = {
    runId: sql.raw(`"automation_run_waits"."run_id"`),
    nodeId: sql.raw(`"automation_run_waits"."node_id"`),
  };
  const rows = await getDb()
    .selectDistinctOn([w.runId], {
      id: w.id,
      runId: w.runId,
      kind: w.kind,
      automationId: w.automationId,
      automationVersion: w.automationVersion,
      nodeId: w.nodeId,
      resumeAt: w.resumeAt,
      // As text: the note is parsed and checked here rather than trusted as whatever jsonb decodes to.
      retry: sql<string | null>`case when ${w.kind} = 'retry' then (
        select (s.output -> 'retry')::text from automation_run_steps s
        where s.run_id = ${outer.runId} and s.node_id = ${outer.nodeId} and s.status = 'failed'
          and s.output -> 'retry' is not null
        order by s.leg desc limit 1) end`,
      awaitingApproval: sql<boolean>`exists (select 1 from automation_run_waits a
        where a.run_id = ${outer.runId} and a.status = 'pending' and a.kind = 'approval' and a.decision is null)`,
    })
    .from(w)
    .where(and(eq(w.tenantId, tenantId), inArray(w.runId, runIds), eq(w.status, "pending")))
    .orderBy(w.runId, w.resumeAt, w.id);
  const fates = await waitFates(tenantId, rows);
  return new Map(
    rows.map((row) => [
      row.runId,
      {
        wait: nextWait(row.kind, { retry: parseJson(row.retry) }),
        awaitingApproval: row.awaitingApproval,
        fate: fates.get(row.id) ?? null,
      },
    ]),
  );
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One run with every step of every leg, in order, its waits, and the graph of its version. */
export async function getRun(tenantId: string, id: string) {
  if (!isUuid(id)) throw notFound("That run");
  const [found] = await getDb()
    .select({ run: automationRuns, automationName: automations.name, entityData: entities.data })
    .from(automationRuns)
    .leftJoin(automations, eq(automations.id, automationRuns.automationId))
    .leftJoin(entities, entityJoin())
    .where(and(eq(automationRuns.tenantId, tenantId), eq(automationRuns.id, id)));
  if (!found) throw notFound("That run");
  const { run } = found;
  const [steps, waits, versions, reruns] = await Promise.all([
    getDb()
      .select()
      .from(automationRunSteps)
      .where(eq(automationRunSteps.runId, run.id))
      .orderBy(
        asc(automationRunSteps.leg),
        asc(automationRunSteps.position),
        asc(automationRunSteps.startedAt),
      ),
    getDb()
      .select()
      .from(automationRunWaits)
      .where(and(eq(automationRunWaits.tenantId, tenantId), eq(automationRunWaits.runId, run.id)))
      .orderBy(asc(automationRunWaits.createdAt)),
    getDb()
      .select({ graph: automationVersions.graph })
      .from(automationVersions)
      .where(
        and(
          eq(automationVersions.automationId, run.automationId),
          eq(automationVersions.version, run.automationVersion),
        ),
      ),
    getDb()
      .select({ id: automationRuns.id, status: automationRuns.status, createdAt: automationRuns.createdAt })
      .from(automationRuns)
      .where(and(eq(automationRuns.tenantId, tenantId), eq(automationRuns.rerunOf, run.id)))
      .orderBy(asc(automationRuns.createdAt)),
  ]);
  const graph = (versions[0]?.graph ?? null) as Graph | null;
  const shaped = numberOccurrences(
    steps.map((s) => ({
      id: s.id,
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      /** The step as drawn in the run's version ("Wait 2 days"). */
      label: stepLabel(graph, s.nodeId, s.nodeType),
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
  );
  const outputs = new Map(steps.map((s) => [s.id, s.output]));
  const stepsById = new Map(steps.map((s) => [s.id, s]));
  const fates = await waitFates(
    tenantId,
    waits.filter((w) => w.status === "pending"),
  );
  const waitViews = waits.map((w) => ({
    ...waitView(w),
    label: stepLabel(graph, w.nodeId, w.nodeType),
    stepId: w.stepId,
    /** A pending wait: what it will do when it wakes, as things stand. */
    fate: fates.get(w.id) ?? null,
    /**
     * A wait that woke but whose leg the wake table stopped (its step skipped, the run cancelled):
     * why. Null for a wait that did resume.
     */
    cancelledAtWake: cancelledAtWake(w, w.stepId ? stepsById.get(w.stepId) : undefined, run),
    /** For an approval: what was asked, of whom, and who decided what (null for other kinds). */
    approval: w.kind === "approval" ? approvalInfo(w, w.stepId ? outputs.get(w.stepId) : null) : null,
  }));
  const earliest = waitViews
    .filter((w) => w.status === "pending")
    .sort((a, b) => a.resumeAt.localeCompare(b.resumeAt) || a.id.localeCompare(b.id))[0];
  return {
    ...summary(run, found.automationName, nextWaitOf(waitViews, shaped), found.entityData),
    fate: run.status === "waiting" ? (earliest?.fate ?? null) : null,
    awaitingApproval: run.status === "waiting" && waitViews.some((w) => w.approval?.state === "pending"),
    event: run.event,
    legs: run.legs,
    steps: shaped,
    waits: waitViews,
    /** The graph of the version this run started on (null if that snapshot is gone). */
    graph,
    /** Each node's latest status in this run, for drawing the path taken on the canvas. */
    nodeStatuses: nodeStatuses(shaped),
    /** A re-run from a step: the step it started at (its label as drawn), else null. */
    rerunFrom: run.rerunFrom
      ? { nodeId: run.rerunFrom, label: stepLabel(graph, run.rerunFrom, run.rerunFrom) }
      : null,
    /** The runs that re-ran this one, oldest first. */
    reruns: reruns.map((r) => ({ id: r.id, status: r.status, createdAt: r.createdAt.toISOString() })),
  };
}

/** Why a resumed wait's leg did not run: its step skipped at wake (or, lacking one, the run's reason). */
function cancelledAtWake(
  wait: typeof automationRunWaits.$inferSelect,
  step: typeof automationRunSteps.$inferSelect | undefined,
  run: RunRow,
): string | null {
  if (wait.status !== "resumed" || wait.kind === "later") return null;
  if (step)
    return step.status === "skipped" ? (step.reason ?? run.reason ?? "Cancelled when it woke.") : null;
  return run.status === "cancelled" ? (run.reason ?? "Cancelled when it woke.") : null;
}

export type RunDetail = Awaited<ReturnType<typeof getRun>>;
