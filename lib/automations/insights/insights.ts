import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { RunStatus, WaitKind } from "@/lib/db/schema";
import { notFound, parseOrThrow } from "@/lib/errors";
import type { Graph } from "@/lib/automations/graph/schema";
import { OUTCOMES, emptyCounts, outcomeOf, totalOf, type DayCounts, type OutcomeCounts } from "./outcomes";
import { PLATFORMS, platformCondition, type Platform } from "./platform";
import { labelKey, stepLabel, stepLabels } from "@/lib/automations/engine/step-labels";

/*
 * Insights: run history read as numbers and pictures (the dashboard, an automation's Insights tab).
 *
 * Terminology
 *   outcome   a run's status as the charts group it: succeeded · partial · failed · cancelled ·
 *             waiting · running (queued and running together: the run is in progress)
 *   day       a calendar day in the shop's time zone (`tenants.timezone`), never UTC's
 *   window    the last N days, today included: from the start of the shop's day N − 1 days ago
 *   platform  whose automations count: `mine` (the merchant's own), `builtin` (the platform's own
 *             periodic jobs, `automations.builtin_slug`), or `all`
 *   reached   a run reached a node when it has a step of that node (any leg, any status); the
 *             actions a code step asked for (`code1#2`) are folded into their code step (`code1`)
 *
 * Every number is aggregated by Postgres (a few statements per widget, each a range scan of an
 * index that starts with the tenant), so a page never carries more than a few dozen rows.
 */

const tenantId = z.uuid("must be a shop id");
const platform = z.enum(PLATFORMS, `must be one of ${PLATFORMS.join(", ")}`);

/** The dashboard's input. `platform` defaults to `mine`: the merchant's own runs. */
export const dashboardInput = z.object({
  tenantId,
  platform: platform.default("mine"),
  /** The instant "today" is read at (tests pin it). Default: now. */
  now: z.date().optional(),
});

/** An automation's insights' input. `days` is the window: 7 (default) or 30. */
export const automationInsightsInput = z.object({
  tenantId,
  automationId: z.uuid("must be an automation id"),
  days: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30)], "must be 7 or 30"))
    .default(7),
  now: z.date().optional(),
});

const andPlatform = (tenant: string, column: SQL, which: Platform) => {
  const condition = platformCondition(tenant, column, which);
  return condition ? sql`and ${condition}` : sql``;
};

interface Window {
  timeZone: string;
  /** Today in the shop's time zone (YYYY-MM-DD). */
  today: string;
  /** The window's first day (YYYY-MM-DD). */
  firstDay: string;
  /** The instant the window starts. */
  from: Date;
  /** Every day of the window, oldest first. */
  days: string[];
}

/** The shop's today and the start of a window of `days` days ending today, read by Postgres in the shop's zone. */
async function windowOf(tenant: string, days: number, now: Date): Promise<Window> {
  const rows = await getDb().execute<{ tz: string; today: string; first_day: string; from: string }>(sql`
    with shop as (select timezone as tz, (${now.toISOString()}::timestamptz at time zone timezone) as local_now
                  from tenants where id = ${tenant}::uuid)
    select tz,
      to_char(local_now, 'YYYY-MM-DD') as today,
      to_char(date_trunc('day', local_now) - make_interval(days => ${days - 1}), 'YYYY-MM-DD') as first_day,
      ${isoOf(sql`(date_trunc('day', local_now) - make_interval(days => ${days - 1})) at time zone tz`)} as "from"
    from shop`);
  const row = rows[0];
  if (!row) throw new Error("That shop does not exist.");
  return {
    timeZone: row.tz,
    today: row.today,
    firstDay: row.first_day,
    from: new Date(row.from),
    days: daysBetween(row.first_day, row.today),
  };
}

/** Calendar days from `first` to `last`, both included (YYYY-MM-DD, no time zone involved). */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  const day = new Date(`${first}T00:00:00Z`);
  const end = new Date(`${last}T00:00:00Z`).getTime();
  while (day.getTime() <= end && out.length < 400) {
    out.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return out;
}

/** Runs per shop day and status since `from` (one statement, the tenant's or the automation's runs index). */
async function runsPerDay(
  tenant: string,
  window: Window,
  filter: { automationId?: string; platform: Platform },
): Promise<DayCounts[]> {
  const rows = await getDb().execute<{ day: string; status: RunStatus; n: number }>(sql`
    select to_char(date_trunc('day', r.created_at at time zone ${window.timeZone}), 'YYYY-MM-DD') as day,
      r.status, count(*)::int as n
    from automation_runs r
    where r.tenant_id = ${tenant}::uuid and r.created_at >= ${window.from.toISOString()}::timestamptz
      ${filter.automationId ? sql`and r.automation_id = ${filter.automationId}::uuid` : sql``}
      ${andPlatform(tenant, sql`r.automation_id`, filter.platform)}
    group by 1, 2`);
  const byDay = new Map(window.days.map((day) => [day, emptyCounts()]));
  for (const row of rows) {
    const counts = byDay.get(row.day);
    if (counts) counts[outcomeOf(row.status)] += row.n;
  }
  return [...byDay].map(([day, counts]) => ({ day, counts }));
}

function sumDays(days: DayCounts[]): OutcomeCounts {
  const total = emptyCounts();
  for (const d of days) for (const o of OUTCOMES) total[o] += d.counts[o];
  return total;
}

/** Timestamps leave Postgres as ISO text in UTC: the driver hands raw timestamptz text through. */
const isoOf = (expr: SQL) => sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface Dashboard {
  timeZone: string;
  platform: Platform;
  today: string;
  /** The first day of "the last 7 days". */
  weekStart: string;
  todayCounts: OutcomeCounts;
  weekCounts: OutcomeCounts;
  /** The last 7 days, oldest first, for the chart. */
  perDay: DayCounts[];
  /** The latest failed runs nobody has re-run yet. */
  failed: {
    id: string;
    automationId: string;
    automationName: string;
    createdAt: string;
    error: string | null;
  }[];
  /** Approvals nobody has decided yet (every automation's). */
  approvalsWaiting: number;
  runsWaiting: number;
  /** The pending waits due soonest. */
  nextResumes: {
    runId: string;
    automationId: string;
    automationName: string;
    label: string;
    kind: WaitKind;
    resumeAt: string;
  }[];
  /** The automations with the most runs in the last 7 days. */
  busiest: { automationId: string; name: string; runs: number; failed: number }[];
}

/** Everything the dashboard shows, tenant-scoped, in six small statements run together. */
export async function dashboard(input: z.input<typeof dashboardInput>): Promise<Dashboard> {
  const q = parseOrThrow(dashboardInput, input, "The dashboard query is invalid");
  const t = q.tenantId;
  const window = await windowOf(t, 7, q.now ?? new Date());
  const since = window.from.toISOString();
  const db = getDb();
  const [perDay, failed, approvals, waiting, next, busiest] = await Promise.all([
    runsPerDay(t, window, { platform: q.platform }),
    // Failed runs needing attention: those not re-run yet (the re-run index answers `not exists`).
    db.execute<{
      id: string;
      automation_id: string;
      name: string;
      created_at: string;
      error: string | null;
    }>(sql`
      select r.id, r.automation_id, a.name, ${isoOf(sql`r.created_at`)} as created_at, coalesce(r.error, r.reason) as error
      from automation_runs r join automations a on a.id = r.automation_id
      where r.tenant_id = ${t}::uuid and r.status = 'failed'
        ${andPlatform(t, sql`r.automation_id`, q.platform)}
        and not exists (select 1 from automation_runs x where x.rerun_of = r.id)
      order by r.created_at desc nulls last, r.id desc nulls last
      limit 5`),
    db.execute<{ n: number }>(sql`
      select count(*)::int as n from automation_run_waits w
      where w.tenant_id = ${t}::uuid and w.status = 'pending' and w.kind = 'approval' and w.decision is null`),
    db.execute<{ n: number }>(sql`
      select count(*)::int as n from automation_runs r
      where r.tenant_id = ${t}::uuid and r.status = 'waiting' ${andPlatform(t, sql`r.automation_id`, q.platform)}`),
    db.execute<{
      run_id: string;
      automation_id: string;
      automation_version: number;
      node_id: string;
      node_type: string;
      kind: WaitKind;
      resume_at: string;
      name: string;
    }>(sql`
      select w.run_id, w.automation_id, w.automation_version, w.node_id, w.node_type, w.kind, ${isoOf(sql`w.resume_at`)} as resume_at, a.name
      from automation_run_waits w join automations a on a.id = w.automation_id
      where w.tenant_id = ${t}::uuid and w.status = 'pending' and w.kind <> 'later'
        ${andPlatform(t, sql`w.automation_id`, q.platform)}
      order by w.resume_at, w.id
      limit 5`),
    db.execute<{ automation_id: string; name: string; runs: number; failed: number }>(sql`
      select r.automation_id, a.name, count(*)::int as runs, (count(*) filter (where r.status = 'failed'))::int as failed
      from automation_runs r join automations a on a.id = r.automation_id
      where r.tenant_id = ${t}::uuid and r.created_at >= ${since}::timestamptz
        ${andPlatform(t, sql`r.automation_id`, q.platform)}
      group by r.automation_id, a.name
      order by runs desc, a.name
      limit 5`),
  ]);
  const nextRows = [...next].map((w) => ({
    automationId: w.automation_id,
    automationVersion: w.automation_version,
    nodeId: w.node_id,
    nodeType: w.node_type,
  }));
  const labels = await stepLabels(t, nextRows);
  return {
    timeZone: window.timeZone,
    platform: q.platform,
    today: window.today,
    weekStart: window.firstDay,
    todayCounts: perDay.find((d) => d.day === window.today)?.counts ?? emptyCounts(),
    weekCounts: sumDays(perDay),
    perDay,
    failed: [...failed].map((r) => ({
      id: r.id,
      automationId: r.automation_id,
      automationName: r.name,
      createdAt: r.created_at,
      error: r.error,
    })),
    approvalsWaiting: approvals[0]?.n ?? 0,
    runsWaiting: waiting[0]?.n ?? 0,
    nextResumes: [...next].map((w, i) => ({
      runId: w.run_id,
      automationId: w.automation_id,
      automationName: w.name,
      label: labels.get(labelKey(nextRows[i]!)) ?? w.node_type,
      kind: w.kind,
      resumeAt: w.resume_at,
    })),
    busiest: [...busiest].map((b) => ({
      automationId: b.automation_id,
      name: b.name,
      runs: b.runs,
      failed: b.failed,
    })),
  };
}

export interface FunnelNode {
  /** The graph's node id (a code step's actions folded into it). */
  nodeId: string;
  nodeType: string;
  /** As drawn in the automation's current graph, else its type's label. */
  label: string;
  /** Distinct runs in the window that reached it. */
  runs: number;
  /** False for a node that is not in the current graph (an older version's). */
  inGraph: boolean;
}

export interface AutomationInsights {
  timeZone: string;
  days: 7 | 30;
  today: string;
  firstDay: string;
  perDay: DayCounts[];
  totals: OutcomeCounts;
  runs: number;
  /** Succeeded out of the runs that finished acting (succeeded, partial, failed); null with none. */
  successRate: number | null;
  /** Of finished runs with a duration (first step to settled, waits included), in ms. */
  p50Ms: number | null;
  p95Ms: number | null;
  /** Pending waits now, per node, soonest first. */
  waiting: {
    nodeId: string;
    nodeType: string;
    kind: WaitKind;
    label: string;
    count: number;
    nextResumeAt: string;
  }[];
  /** How many runs reached each node in the window, in graph order then the rest. */
  funnel: FunnelNode[];
  /** The graph the funnel is drawn on: the active one, else the draft. */
  graph: Graph;
}

/** One automation's charts and funnel, in five statements by its runs index. */
export async function automationInsights(
  input: z.input<typeof automationInsightsInput>,
): Promise<AutomationInsights> {
  const q = parseOrThrow(automationInsightsInput, input, "The insights query is invalid");
  const t = q.tenantId;
  const days = q.days as 7 | 30;
  const db = getDb();
  const [found] = await db.execute<{ active_graph: Graph | null; draft_graph: Graph }>(sql`
    select active_graph, draft_graph from automations where tenant_id = ${t}::uuid and id = ${q.automationId}::uuid`);
  if (!found) throw notFound("That automation");
  const graph = found.active_graph ?? found.draft_graph;
  const window = await windowOf(t, days, q.now ?? new Date());
  const since = window.from.toISOString();
  const a = q.automationId;
  const [perDay, summary, waits, steps, triggers] = await Promise.all([
    runsPerDay(t, window, { automationId: a, platform: "all" }),
    db.execute<{ p50: number | null; p95: number | null }>(sql`
      select percentile_cont(0.5) within group (order by r.duration_ms) as p50,
        percentile_cont(0.95) within group (order by r.duration_ms) as p95
      from automation_runs r
      where r.tenant_id = ${t}::uuid and r.automation_id = ${a}::uuid and r.created_at >= ${since}::timestamptz
        and r.status in ('succeeded', 'partial', 'failed') and r.duration_ms is not null`),
    db.execute<{
      node_id: string;
      node_type: string;
      kind: WaitKind;
      version: number;
      n: number;
      next_at: string;
    }>(sql`
      select w.node_id, w.node_type, w.kind, max(w.automation_version) as version, count(*)::int as n,
        ${isoOf(sql`min(w.resume_at)`)} as next_at
      from automation_run_waits w
      where w.tenant_id = ${t}::uuid and w.automation_id = ${a}::uuid and w.status = 'pending'
      group by w.node_id, w.node_type, w.kind
      order by min(w.resume_at)`),
    // Graph ids never contain '#', so the part before it is the node a code step's action belongs to.
    db.execute<{ node_id: string; node_type: string; n: number }>(sql`
      select split_part(s.node_id, '#', 1) as node_id,
        coalesce(max(s.node_type) filter (where s.node_id not like '%#%'), max(s.node_type)) as node_type,
        count(distinct s.run_id)::int as n
      from automation_runs r
      join automation_run_steps s on s.run_id = r.id and s.tenant_id = r.tenant_id
      where r.tenant_id = ${t}::uuid and r.automation_id = ${a}::uuid and r.created_at >= ${since}::timestamptz
      group by 1`),
    // The trigger has no step: the run itself is the trigger firing.
    db.execute<{ node_id: string; n: number }>(sql`
      select r.trigger_node_id as node_id, count(*)::int as n
      from automation_runs r
      where r.tenant_id = ${t}::uuid and r.automation_id = ${a}::uuid and r.created_at >= ${since}::timestamptz
      group by 1`),
  ]);
  const totals = sumDays(perDay);
  const finished = totals.succeeded + totals.partial + totals.failed;
  const waitLabels = await stepLabels(
    t,
    [...waits].map((w) => ({
      automationId: a,
      automationVersion: w.version,
      nodeId: w.node_id,
      nodeType: w.node_type,
    })),
  );
  const reached = new Map<string, { nodeType: string; runs: number }>();
  for (const s of steps) reached.set(s.node_id, { nodeType: s.node_type, runs: s.n });
  for (const tr of triggers) {
    const type = graph.nodes.find((n) => n.id === tr.node_id)?.type ?? "trigger";
    reached.set(tr.node_id, { nodeType: type, runs: (reached.get(tr.node_id)?.runs ?? 0) + tr.n });
  }
  const funnel: FunnelNode[] = graph.nodes.map((node) => ({
    nodeId: node.id,
    nodeType: node.type,
    label: stepLabel(graph, node.id, node.type),
    runs: reached.get(node.id)?.runs ?? 0,
    inGraph: true,
  }));
  const inGraph = new Set(graph.nodes.map((n) => n.id));
  for (const [nodeId, r] of reached) {
    if (!inGraph.has(nodeId))
      funnel.push({
        nodeId,
        nodeType: r.nodeType,
        label: stepLabel(null, nodeId, r.nodeType),
        runs: r.runs,
        inGraph: false,
      });
  }
  return {
    timeZone: window.timeZone,
    days,
    today: window.today,
    firstDay: window.firstDay,
    perDay,
    totals,
    runs: totalOf(totals),
    successRate: finished > 0 ? totals.succeeded / finished : null,
    p50Ms: summary[0]?.p50 ?? null,
    p95Ms: summary[0]?.p95 ?? null,
    waiting: [...waits].map((w) => ({
      nodeId: w.node_id,
      nodeType: w.node_type,
      kind: w.kind,
      label:
        waitLabels.get(
          labelKey({
            automationId: a,
            automationVersion: w.version,
            nodeId: w.node_id,
            nodeType: w.node_type,
          }),
        ) ?? w.node_type,
      count: w.n,
      nextResumeAt: w.next_at,
    })),
    funnel,
    graph,
  };
}
