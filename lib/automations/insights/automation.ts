import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { WaitKind } from "@/lib/db/schema";
import { notFound, parseOrThrow } from "@/lib/errors";
import type { Graph } from "@/lib/automations/graph/schema";
import { successRateOf, totalOf, type DayCounts, type OutcomeCounts } from "./outcomes";
import { labelKey, stepLabel, stepLabels } from "@/lib/automations/engine/step-labels";
import { tenantId, windowOf, runsPerDay, sumDays, isoOf } from "./window";

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

export interface FunnelNode {
  /** The graph's node id (a code step's actions folded into it). */
  nodeId: string;
  nodeType: string;
  /** As drawn in the automation's current graph, else its type's label. */
  label: string;
  /** Distinct first runs in the window that reached it (re-runs are counted apart, in `reruns`). */
  runs: number;
  /** Distinct re-runs in the window that reached it. */
  reruns: number;
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
  /** Of `runs`, how many were re-runs (the funnel counts them apart). */
  reruns: number;
  /**
   * Succeeded out of the runs that finished acting (succeeded, partial, failed); runs with nothing
   * to do are left out. Null with none.
   */
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
    // First runs and re-runs apart (`rerun`), so a re-run does not count as a second customer.
    db.execute<{ node_id: string; node_type: string; rerun: boolean; n: number }>(sql`
      select split_part(s.node_id, '#', 1) as node_id,
        coalesce(max(s.node_type) filter (where s.node_id not like '%#%'), max(s.node_type)) as node_type,
        r.rerun_of is not null as rerun, count(distinct s.run_id)::int as n
      from automation_runs r
      join automation_run_steps s on s.run_id = r.id and s.tenant_id = r.tenant_id
      where r.tenant_id = ${t}::uuid and r.automation_id = ${a}::uuid and r.created_at >= ${since}::timestamptz
      group by 1, 3`),
    // The trigger has no step: the run itself is the trigger firing.
    db.execute<{ node_id: string; rerun: boolean; n: number }>(sql`
      select r.trigger_node_id as node_id, r.rerun_of is not null as rerun, count(*)::int as n
      from automation_runs r
      where r.tenant_id = ${t}::uuid and r.automation_id = ${a}::uuid and r.created_at >= ${since}::timestamptz
      group by 1, 2`),
  ]);
  const totals = sumDays(perDay);
  const waitLabels = await stepLabels(
    t,
    [...waits].map((w) => ({
      automationId: a,
      automationVersion: w.version,
      nodeId: w.node_id,
      nodeType: w.node_type,
    })),
  );
  const reached = new Map<string, { nodeType: string; runs: number; reruns: number }>();
  const count = (nodeId: string, nodeType: string, rerun: boolean, n: number) => {
    const r = reached.get(nodeId) ?? { nodeType, runs: 0, reruns: 0 };
    if (rerun) r.reruns += n;
    else r.runs += n;
    reached.set(nodeId, r);
  };
  for (const s of steps) count(s.node_id, s.node_type, s.rerun, s.n);
  for (const tr of triggers)
    count(tr.node_id, graph.nodes.find((n) => n.id === tr.node_id)?.type ?? "trigger", tr.rerun, tr.n);
  const funnel: FunnelNode[] = graph.nodes.map((node) => ({
    nodeId: node.id,
    nodeType: node.type,
    label: stepLabel(graph, node.id, node.type),
    runs: reached.get(node.id)?.runs ?? 0,
    reruns: reached.get(node.id)?.reruns ?? 0,
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
        reruns: r.reruns,
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
    reruns: [...triggers].reduce((sum, tr) => sum + (tr.rerun ? tr.n : 0), 0),
    successRate: successRateOf(totals),
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
