import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { WaitKind } from "@/lib/db/schema";
import { parseOrThrow } from "@/lib/errors";
import { emptyCounts, type DayCounts, type OutcomeCounts } from "./outcomes";
import { type Platform } from "./platform";
import { labelKey, stepLabels } from "@/lib/automations/engine/step-labels";
import { tenantId, platform, andPlatform, windowOf, runsPerDay, sumDays, isoOf } from "./window";

/** The dashboard's input. `platform` defaults to `mine`: the merchant's own runs. */
export const dashboardInput = z.object({
  tenantId,
  platform: platform.default("mine"),
  /** The instant "today" is read at (tests pin it). Default: now. */
  now: z.date().optional(),
});

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
  /** The latest runs with a failed action (failed or partly failed) nobody has re-run yet. */
  failed: {
    id: string;
    automationId: string;
    automationName: string;
    /** `partial`: some of its actions worked ("Partly failed"). */
    status: "failed" | "partial";
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
  /** The automations with the most runs in the last 7 days; `failed` counts partly failed ones too. */
  busiest: { automationId: string; name: string; runs: number; failed: number }[];
}

const ATTENTION_LIMIT = 5;

/** The latest runs of one status nobody has re-run yet, newest first (one range of the status index). */
function needingAttention(t: string, status: "failed" | "partial", which: Platform) {
  return sql`(select r.id, r.automation_id, a.name, r.status, r.created_at, coalesce(r.error, r.reason) as error
      from automation_runs r join automations a on a.id = r.automation_id
      where r.tenant_id = ${t}::uuid and r.status = ${status}
        ${andPlatform(t, sql`r.automation_id`, which)}
        and not exists (select 1 from automation_runs x where x.rerun_of = r.id)
      order by r.created_at desc nulls last, r.id desc nulls last
      limit ${ATTENTION_LIMIT})`;
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
    // Runs with a failed action needing attention, failed and partly failed alike: those not re-run
    // yet (the re-run index answers `not exists`). Each status is its own range of the status index,
    // read newest first up to the limit; the two short lists are then merged.
    db.execute<{
      id: string;
      automation_id: string;
      name: string;
      status: "failed" | "partial";
      created_at: string;
      error: string | null;
    }>(sql`
      select f.id, f.automation_id, f.name, f.status, ${isoOf(sql`f.created_at`)} as created_at, f.error
      from (${needingAttention(t, "failed", q.platform)} union all ${needingAttention(t, "partial", q.platform)}) f
      order by f.created_at desc, f.id desc
      limit ${ATTENTION_LIMIT}`),
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
      select r.automation_id, a.name, count(*)::int as runs, (count(*) filter (where r.status in ('failed', 'partial')))::int as failed
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
      status: r.status,
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
