import crypto from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { automationInsights } from "@/lib/automations/insights/automation";
import { dashboard } from "@/lib/automations/insights/dashboard";
import { platformCondition } from "@/lib/automations/insights/platform";
import { listRuns } from "@/lib/automations/runs/history";
import { getDb } from "@/lib/db/client";
import { automationRuns, type RunStatus } from "@/lib/db/schema";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow } from "@/tests/helpers/flows";

/*
 * Insights on a real database, with run history inserted directly (as bench/history.ts does):
 * the shop is in Asia/Tokyo (UTC+9, no DST), "now" is pinned at 1 Dec 2026 12:00 Tokyo time, so
 * a run at 30 Nov 15:30 UTC belongs to Tokyo's 1 December (the day-boundary case).
 *
 *   order_created ──▶ code (its actions c#1, c#2) ──▶ Wait 2 days ──▶ add_tag(done)
 */
const graph = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "c", type: "auto.action.code", params: { source: "actions.tag('x')" } },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "done" } },
  ],
  [
    ["t", "c"],
    ["c", "w"],
    ["w", "tag"],
  ],
);

const NOW = new Date("2026-12-01T03:00:00Z");
const HOUR = 3600_000;

let shop: TestShop;
let other: TestShop;
/** The merchant's flow (F), a second one of theirs (G), a built-in (B), and the other shop's (O). */
const ids = { F: "", G: "", B: "", O: "" };
const runs: Record<string, string> = {};

async function automation(tenantId: string, name: string, builtinSlug: string | null = null) {
  const [row] = await getDb().execute<{ id: string }>(sql`
    insert into automations (tenant_id, name, status, version, draft_graph, active_graph, builtin_slug)
    values (${tenantId}::uuid, ${name}, 'active', 1, ${JSON.stringify(graph)}::jsonb, ${JSON.stringify(graph)}::jsonb,
      ${builtinSlug})
    returning id`);
  await getDb().execute(sql`
    insert into automation_versions (automation_id, version, tenant_id, name, graph, in_flight_policy, author)
    values (${row!.id}::uuid, 1, ${tenantId}::uuid, ${name}, ${JSON.stringify(graph)}::jsonb, 'cancel', 'test')`);
  return row!.id;
}

async function run(
  tenantId: string,
  automationId: string,
  status: RunStatus,
  at: string,
  options: { durationMs?: number; rerunOf?: string; steps?: [string, string, number][] } = {},
) {
  const [row] = await getDb().execute<{ id: string }>(sql`
    insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
      event, domain, legs, started_at, finished_at, duration_ms, rerun_of, created_at, updated_at)
    values (${tenantId}::uuid, ${automationId}::uuid, 1, ${status}, ${crypto.randomUUID()}, 't',
      '{"id":"e","type":"order.created","domain":"order","entityId":null,"entityStatus":null,"payload":{},"occurredAt":"2026-01-01T00:00:00Z"}'::jsonb,
      'order', 1, ${at}::timestamptz, ${options.durationMs === undefined ? null : at}::timestamptz,
      ${options.durationMs ?? null}, ${options.rerunOf ?? null}::uuid, ${at}::timestamptz, ${at}::timestamptz)
    returning id`);
  const id = row!.id;
  for (const [nodeId, nodeType, leg] of options.steps ?? []) {
    await getDb().execute(sql`
      insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg)
      values (${tenantId}::uuid, ${id}::uuid, ${nodeId}, ${nodeType}, 'action', 'success', ${leg})`);
  }
  return id;
}

async function wait(
  tenantId: string,
  automationId: string,
  runId: string,
  nodeId: string,
  nodeType: string,
  kind: string,
  resumeAt: Date,
  status = "pending",
) {
  await getDb().execute(sql`
    insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type, leg,
      event, kind, status, resume_at)
    values (${tenantId}::uuid, ${runId}::uuid, ${automationId}::uuid, 1, ${nodeId}, ${nodeType}, 1,
      '{}'::jsonb, ${kind}, ${status}, ${resumeAt.toISOString()}::timestamptz)`);
}

const CODE: [string, string, number] = ["c", "auto.action.code", 1];
const ACTION1: [string, string, number] = ["c#1", "auto.action.add_tag", 1];
const ACTION2: [string, string, number] = ["c#2", "auto.action.add_note", 1];
const WAIT: [string, string, number] = ["w", "auto.control.wait", 1];
const TAG: [string, string, number] = ["tag", "auto.action.add_tag", 2];

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await getDb().execute(sql`update tenants set timezone = 'Asia/Tokyo' where id = ${shop.tenant.id}::uuid`);
  const t = shop.tenant.id;
  ids.F = await automation(t, "Tag paid orders");
  ids.G = await automation(t, "Ask before refunds");
  ids.B = await automation(t, "Purge run history", "purge-run-history");
  ids.O = await automation(other.tenant.id, "Other shop's flow");

  // 1 Dec 00:30 in Tokyo, 30 Nov in UTC: counted on Tokyo's 1 December.
  runs.r1 = await run(t, ids.F, "succeeded", "2026-11-30T15:30:00Z", {
    durationMs: 1000,
    steps: [CODE, ACTION1, ACTION2, WAIT, TAG],
  });
  // 30 Nov 23:30 in Tokyo.
  runs.r2 = await run(t, ids.F, "failed", "2026-11-30T14:30:00Z", {
    durationMs: 3000,
    steps: [CODE, ACTION1],
  });
  runs.r3 = await run(t, ids.F, "succeeded", "2026-11-29T10:00:00Z", {
    durationMs: 2000,
    steps: [CODE, ACTION1, WAIT, TAG],
  });
  // 24 Nov 23:59 in Tokyo: a minute before the 7-day window, inside the 30-day one.
  runs.r4 = await run(t, ids.F, "succeeded", "2026-11-24T14:59:00Z", {
    durationMs: 40_000,
    steps: [CODE, WAIT, TAG],
  });
  runs.r5 = await run(t, ids.F, "waiting", "2026-12-01T01:00:00Z", { steps: [CODE, ACTION1, WAIT] });
  runs.r6 = await run(t, ids.F, "partial", "2026-11-28T00:00:00Z", {
    durationMs: 5000,
    steps: [CODE, WAIT, TAG],
  });
  await wait(t, ids.F, runs.r5, "w", "auto.control.wait", "delay", new Date(NOW.getTime() + HOUR));
  await wait(t, ids.F, runs.r1, "w", "auto.control.wait", "delay", new Date(NOW.getTime() - HOUR), "resumed");

  runs.r7 = await run(t, ids.G, "waiting", "2026-12-01T02:00:00Z", { steps: [CODE] });
  await wait(t, ids.G, runs.r7, "w", "auto.control.approval", "approval", new Date(NOW.getTime() + 2 * HOUR));
  // A failed run already re-run does not need attention any more.
  runs.r9 = await run(t, ids.G, "failed", "2026-11-20T00:00:00Z", { durationMs: 10 });
  runs.r10 = await run(t, ids.G, "succeeded", "2026-11-20T01:00:00Z", { durationMs: 10, rerunOf: runs.r9 });

  // The platform's own job ran twice today.
  runs.b1 = await run(t, ids.B, "succeeded", "2026-12-01T00:00:00Z", { durationMs: 50 });
  runs.b2 = await run(t, ids.B, "failed", "2026-12-01T00:10:00Z", { durationMs: 50 });

  // Another shop, same days: never counted in this one's.
  runs.o1 = await run(other.tenant.id, ids.O, "failed", "2026-11-30T20:00:00Z", {
    durationMs: 7,
    steps: [CODE],
  });
  await wait(other.tenant.id, ids.O, runs.o1, "w", "auto.control.approval", "approval", NOW);
});

const zero = { succeeded: 0, nothing: 0, partial: 0, failed: 0, cancelled: 0, waiting: 0, running: 0 };

describe("dashboard", () => {
  test("counts the merchant's runs by day in the shop's time zone, by outcome", async () => {
    const d = await dashboard({ tenantId: shop.tenant.id, now: NOW });
    expect(d.timeZone).toBe("Asia/Tokyo");
    expect(d.today).toBe("2026-12-01");
    expect(d.weekStart).toBe("2026-11-25");
    expect(d.perDay.map((p) => p.day)).toEqual([
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
    ]);
    const byDay = Object.fromEntries(d.perDay.map((p) => [p.day, p.counts]));
    expect(byDay["2026-12-01"]).toEqual({ ...zero, succeeded: 1, waiting: 2 });
    expect(byDay["2026-11-30"]).toEqual({ ...zero, failed: 1 });
    expect(byDay["2026-11-29"]).toEqual({ ...zero, succeeded: 1 });
    expect(byDay["2026-11-28"]).toEqual({ ...zero, partial: 1 });
    expect(byDay["2026-11-25"]).toEqual(zero);
    expect(d.todayCounts).toEqual({ ...zero, succeeded: 1, waiting: 2 });
    expect(d.weekCounts).toEqual({ ...zero, succeeded: 2, failed: 1, partial: 1, waiting: 2 });
  });

  test("lists what needs attention: failed runs not re-run, approvals, waiting runs and the next resumes", async () => {
    const d = await dashboard({ tenantId: shop.tenant.id, now: NOW });
    // Partly failed runs need attention as much as failed ones (SPEC §2 "Settling").
    expect(d.failed.map((f) => [f.id, f.status])).toEqual([
      [runs.r2, "failed"],
      [runs.r6, "partial"],
    ]);
    expect(d.failed[0]).toMatchObject({ automationId: ids.F, automationName: "Tag paid orders" });
    expect(d.approvalsWaiting).toBe(1);
    expect(d.runsWaiting).toBe(2);
    expect(d.nextResumes.map((w) => [w.runId, w.kind, w.label])).toEqual([
      [runs.r5, "delay", "Wait 2 days"],
      [runs.r7, "approval", expect.any(String)],
    ]);
    expect(d.nextResumes[0]!.resumeAt).toBe(new Date(NOW.getTime() + HOUR).toISOString());
    expect(d.busiest).toEqual([
      { automationId: ids.F, name: "Tag paid orders", runs: 5, failed: 2 },
      { automationId: ids.G, name: "Ask before refunds", runs: 1, failed: 0 },
    ]);
  });

  test("the platform filter: built-in runs apart, or together", async () => {
    const builtin = await dashboard({ tenantId: shop.tenant.id, platform: "builtin", now: NOW });
    expect(builtin.todayCounts).toEqual({ ...zero, succeeded: 1, failed: 1 });
    expect(builtin.failed.map((f) => f.id)).toEqual([runs.b2]);
    expect(builtin.busiest.map((b) => b.automationId)).toEqual([ids.B]);
    const all = await dashboard({ tenantId: shop.tenant.id, platform: "all", now: NOW });
    expect(all.todayCounts).toEqual({ ...zero, succeeded: 2, failed: 1, waiting: 2 });
    expect(all.failed.map((f) => f.id)).toEqual([runs.b2, runs.r2, runs.r6]);
    await expect(dashboard({ tenantId: shop.tenant.id, platform: "nobody" as "all" })).rejects.toThrow(
      /platform/,
    );
  });

  test("another shop's runs and approvals are never counted, and it sees only its own", async () => {
    const mine = await dashboard({ tenantId: shop.tenant.id, platform: "all", now: NOW });
    expect(mine.perDay.flatMap((p) => Object.values(p.counts)).reduce((a, b) => a + b, 0)).toBe(8);
    const theirs = await dashboard({ tenantId: other.tenant.id, platform: "all", now: NOW });
    expect(theirs.timeZone).toBe("UTC");
    // 30 Nov 20:00 UTC is still 30 November in UTC (it is 1 December in Tokyo).
    expect(theirs.perDay.find((p) => p.day === "2026-11-30")!.counts).toEqual({ ...zero, failed: 1 });
    expect(theirs.failed.map((f) => f.id)).toEqual([runs.o1]);
    expect(theirs.approvalsWaiting).toBe(1);
    expect(theirs.busiest.map((b) => b.automationId)).toEqual([ids.O]);
  });
});

describe("an automation's insights", () => {
  test("last 7 days: per day, success rate, p50/p95, waiting per node, the funnel with a code step's actions folded", async () => {
    const i = await automationInsights({ tenantId: shop.tenant.id, automationId: ids.F, now: NOW });
    expect(i.days).toBe(7);
    expect(i.runs).toBe(5);
    expect(i.totals).toEqual({ ...zero, succeeded: 2, failed: 1, partial: 1, waiting: 1 });
    expect(i.perDay.find((p) => p.day === "2026-12-01")!.counts).toEqual({
      ...zero,
      succeeded: 1,
      waiting: 1,
    });
    expect(i.successRate).toBe(0.5);
    // Finished durations 1000, 2000, 3000, 5000: p50 halfway between 2000 and 3000; p95 at 2.85.
    expect(i.p50Ms).toBe(2500);
    expect(i.p95Ms).toBeCloseTo(4700, 5);
    expect(i.waiting).toEqual([
      {
        nodeId: "w",
        nodeType: "auto.control.wait",
        kind: "delay",
        label: "Wait 2 days",
        count: 1,
        nextResumeAt: new Date(NOW.getTime() + HOUR).toISOString(),
      },
    ]);
    expect(i.funnel.map((f) => [f.nodeId, f.runs])).toEqual([
      ["t", 5],
      ["c", 5],
      ["w", 4],
      ["tag", 3],
    ]);
    expect(i.funnel.every((f) => f.inGraph && !f.nodeId.includes("#"))).toBe(true);
  });

  test("last 30 days takes in the older run", async () => {
    const i = await automationInsights({ tenantId: shop.tenant.id, automationId: ids.F, days: 30, now: NOW });
    expect(i.firstDay).toBe("2026-11-02");
    expect(i.perDay).toHaveLength(30);
    expect(i.runs).toBe(6);
    expect(i.perDay.find((p) => p.day === "2026-11-24")!.counts).toEqual({ ...zero, succeeded: 1 });
    expect(i.funnel.map((f) => [f.nodeId, f.runs])).toEqual([
      ["t", 6],
      ["c", 6],
      ["w", 5],
      ["tag", 4],
    ]);
    expect(i.p95Ms).toBeGreaterThan(5000);
  });

  test("an automation of another shop is not found, and a bad window is refused", async () => {
    await expect(
      automationInsights({ tenantId: other.tenant.id, automationId: ids.F, now: NOW }),
    ).rejects.toThrow(/not found|That automation/i);
    await expect(
      automationInsights({ tenantId: shop.tenant.id, automationId: ids.F, days: 14 }),
    ).rejects.toThrow(/7 or 30/);
    const theirs = await automationInsights({ tenantId: other.tenant.id, automationId: ids.O, now: NOW });
    expect(theirs.runs).toBe(1);
    expect(theirs.waiting.map((w) => w.count)).toEqual([1]);
  });
});

describe("the runs list's platform filter", () => {
  test("mine, builtin and all (the API's default)", async () => {
    const t = shop.tenant.id;
    const automationsOf = async (platform?: string) =>
      new Set(
        (await listRuns(t, platform ? { platform, limit: 200 } : { limit: 200 })).items.map(
          (r) => r.automationId,
        ),
      );
    expect(await automationsOf("builtin")).toEqual(new Set([ids.B]));
    expect(await automationsOf("mine")).toEqual(new Set([ids.F, ids.G]));
    expect(await automationsOf()).toEqual(new Set([ids.F, ids.G, ids.B]));
    await expect(listRuns(t, { platform: "theirs" })).rejects.toThrow(/platform/);
    // Combined with a status, and paged by the keyset cursor.
    const first = await listRuns(t, { platform: "mine", status: "succeeded", limit: 1 });
    expect(first.items).toHaveLength(1);
    const second = await listRuns(t, {
      platform: "mine",
      status: "succeeded",
      limit: 1,
      cursor: first.nextCursor!,
    });
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.items[0]!.automationId).not.toBe(ids.B);
  });

  test("keyset pages with the filter stay one index range scan (EXPLAIN)", async () => {
    const t = shop.tenant.id;
    // Enough history that the planner prefers the index: 20,000 old runs, a tenth of them the built-in's.
    await getDb().execute(sql`
      insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
        event, domain, created_at, updated_at)
      select ${t}::uuid, case when g % 10 = 0 then ${ids.B}::uuid else ${ids.F}::uuid end, 1, 'succeeded',
        'bulk' || g, 't', '{}'::jsonb, 'order', timestamptz '2025-01-01' + g * interval '1 minute', now()
      from generate_series(1, 20000) g`);
    await getDb().execute(sql`analyze automation_runs`);
    await getDb().execute(sql`analyze automations`);
    const r = automationRuns;
    for (const which of ["mine", "builtin"] as const) {
      const page = getDb()
        .select({ id: r.id })
        .from(r)
        .where(
          and(
            eq(r.tenantId, t),
            platformCondition(t, sql`${r.automationId}`, which),
            sql`(${r.createdAt}, ${r.id}) < (${"2025-01-10T00:00:00Z"}::timestamptz, ${crypto.randomUUID()}::uuid)`,
          ),
        )
        .orderBy(sql`${r.createdAt} desc nulls last`, sql`${r.id} desc nulls last`)
        .limit(51);
      const plan = (await getDb().execute<{ "QUERY PLAN": string }>(sql`explain ${page}`))
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      if (process.env.INSIGHTS_PRINT_PLANS) console.log(`platform=${which}\n${plan}`);
      // Run history is partitioned by month: each partition's copy of the tenant index, merged in order.
      expect(plan, plan).toMatch(
        /Index (Only )?Scan using automation_runs_\w*tenant\w*_idx on automation_runs/,
      );
      expect(plan, plan).not.toMatch(/Seq Scan on automation_runs|^\s*(->\s+)?Sort\s+\(/m);
    }
    // The real list answers the same (its own query, with the labels' joins) and stays ordered.
    const listed = await listRuns(t, { platform: "builtin", limit: 50 });
    expect(listed.items.every((item) => item.automationId === ids.B)).toBe(true);
    const times = listed.items.map((item) => item.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const newest = await getDb()
      .select({ id: r.id })
      .from(r)
      .where(and(eq(r.tenantId, t), eq(r.automationId, ids.B)))
      .orderBy(desc(r.createdAt))
      .limit(1);
    expect(listed.items[0]!.id).toBe(newest[0]!.id);
  });
});
