import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, automations, entities } from "@/lib/db/schema";
import { decodePreciseCursor, encodePreciseCursor, preciseTimestamp } from "@/lib/pagination/precise-cursor";
import { nextWait, type NextWait } from "./timeline";
import { resolveEntitySearch, runsAboutRecords } from "./entity-filter";
import { PLATFORMS, platformCondition } from "@/lib/automations/insights/platform";
import { waitFates, type WaitFate } from "@/lib/automations/waits/fate";
import { entityJoin, summary, type RunSummary } from "./summary";
import { parseOrThrow } from "@/lib/errors";
import { parseRunRef, RUN_REF_HINT, type RunRef } from "./short-id";

export const RUN_STATUSES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "partial",
  "failed",
  "cancelled",
  "held",
  "held_out",
] as const;

/**
 * Filters beyond a status: `failed_or_partial`, every run with a failed action (SPEC §2: partial
 * counts as a failure wherever failures are counted); `nothing_to_do`, succeeded runs that took no
 * action.
 */
export const RUN_STATUS_FILTERS = [...RUN_STATUSES, "failed_or_partial", "nothing_to_do"] as const;
export type RunStatusFilter = (typeof RUN_STATUS_FILTERS)[number];

/** The condition of a status filter on `automation_runs`. */
function statusCondition(status: RunStatusFilter) {
  const r = automationRuns;
  if (status === "failed_or_partial") return inArray(r.status, ["failed", "partial"]);
  if (status === "nothing_to_do") return and(eq(r.status, "succeeded"), eq(r.actionsTaken, 0));
  return eq(r.status, status);
}

/** An instant with its offset (`2026-11-30T09:00:00+01:00`), or a date, read as midnight UTC. */
const instant = z.union(
  [z.iso.datetime({ offset: true }), z.iso.date()],
  "must be a date (2026-11-30) or a date-time with its offset (2026-11-30T09:00:00Z)",
);

export const runsQuery = z
  .object({
    automationId: z.uuid("must be an automation id").optional(),
    status: z.enum(RUN_STATUS_FILTERS, `must be one of ${RUN_STATUS_FILTERS.join(", ")}`).optional(),
    domain: z.string().max(50).optional(),
    /** An id, an order number ("#1022" or "1022"), an email or a customer's name. */
    entityId: z.string().max(200).optional(),
    /**
     * One run by its short id (the last characters of its id, as the Run column shows them) or by
     * its full id.
     */
    run: z
      .string()
      .max(100)
      .refine((text) => parseRunRef(text) !== null, RUN_REF_HINT)
      .optional(),
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

/** A page of the run history (`GET /api/v1/runs`). */
export interface RunPage {
  items: RunSummary[];
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
}

/**
 * Runs, newest first, keyset-paginated on (created_at, id). Every filter combination the UI offers
 * is one range scan of an index that starts with the tenant (see the indexes of
 * `automation_runs`); there is no OFFSET and no count.
 */
export async function listRuns(tenantId: string, query: unknown = {}): Promise<RunPage> {
  const q = parseOrThrow(runsQuery, query, "The runs query is invalid");
  const after = q.cursor ? decodePreciseCursor(q.cursor) : null;
  const r = automationRuns;
  const records = q.entityId ? await resolveEntitySearch(tenantId, q.entityId, q.domain) : [];
  const ref = q.run ? parseRunRef(q.run) : null;
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
        q.status ? statusCondition(q.status) : undefined,
        q.domain ? eq(r.domain, q.domain) : undefined,
        platformCondition(tenantId, sql`${r.automationId}`, q.platform),
        records.length > 0 ? runsAboutRecords(records) : undefined,
        ref ? runMatches(ref) : undefined,
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
 * The runs a search by id names. A full id is a primary-key probe in one partition. A tail is read
 * off the tenant's runs in the page's order (newest first) until a page is found, so it costs a
 * scan of the shop's runs when few match; no index serves a suffix (one on
 * `(tenant_id, right(id::text, 8))` would, if shops search often).
 */
function runMatches(ref: RunRef): SQL {
  if (ref.kind === "id") return eq(automationRuns.id, ref.id);
  // The tail is hex only (parseRunRef), so it has no LIKE wildcards to escape.
  return sql`${automationRuns.id}::text like ${`%${ref.tail}`}`;
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
      deferred: sql<string | null>`case when ${w.kind} = 'deferred' then (
        select s.reason from automation_run_steps s
        where s.run_id = ${outer.runId} and s.node_id = ${outer.nodeId} and s.status = 'waiting'
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
        wait: nextWait(row.kind, { retry: parseJson(row.retry) }, row.deferred),
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
