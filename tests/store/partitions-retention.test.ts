import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { purgeRunHistoryExecutor } from "@/lib/automations/nodes/platform/platform.execute";
import type { ActionContext } from "@/lib/automations/nodes/executor";
import { builtinAutomation, ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { ensureRunPartitions, monthPartitions } from "@/lib/automations/store/partitions";
import { getDb } from "@/lib/db/client";
import { createShop, type TestShop } from "@/tests/helpers/shop";

// Retention on partitioned run history, with the purge built-in's 90 days:
//
//   month  now-6        now-5               month of the cutoff          this month
//          [ A A ]      [ A  B ]            [ A(before) | A(after) ]     [ A A ]
//          dropped      kept: B's shop      batch-deleted up to the      untouched
//                       has no purge; A's   cutoff
//                       run deleted
const DAY = 86_400_000;
let shop: TestShop;
let other: TestShop;
let purgeId: string;

const month = async (at: Date) => {
  const [row] = await getDb().execute<{ m: number }>(
    sql`select automation_run_month(${at.toISOString()}::timestamptz) as m`,
  );
  return Number(row!.m);
};

/** A finished run (with a step, a delivery, a resolved wait and an email) created at `at`. */
async function runAt(
  tenantId: string,
  automationId: string,
  at: Date,
  status = "succeeded",
): Promise<string> {
  const eventId = `evt-${crypto.randomBytes(4).toString("hex")}`;
  const [run] = await getDb().execute<{ id: string }>(sql`
    insert into automation_runs (id, tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
      event, domain, legs, created_at, started_at, finished_at)
    values (automation_run_id(${at.toISOString()}::timestamptz), ${tenantId}, ${automationId}, 1, ${status}, ${eventId},
      'schedule', jsonb_build_object('id', ${eventId}::text), 'schedule', 1, ${at.toISOString()}::timestamptz,
      ${at.toISOString()}::timestamptz,
      ${status === "running" ? null : at.toISOString()}::timestamptz)
    returning id`);
  const id = run!.id;
  await getDb().execute(sql`
    with s as (
      insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg)
      values (${tenantId}, ${id}, 'a', 'auto.action.add_tag', 'action', 'success', 1) returning 1
    ), d as (
      insert into action_deliveries (tenant_id, run_id, node_id, leg, node_type, dedupe_key, status, request)
      values (${tenantId}, ${id}, 'a', 1, 'auto.action.add_tag', ${`${id}:a:1`}, 'delivered', '{}') returning 1
    ), w as (
      insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type, leg,
        event, kind, status, resume_at)
      values (${tenantId}, ${id}, ${automationId}, 1, 'w', 'auto.control.wait', 1, '{}', 'delay', 'resumed', ${at.toISOString()}::timestamptz)
      returning 1
    )
    insert into outbox_emails (tenant_id, run_id, "to", subject, body_html, status)
    select ${tenantId}, ${id}, 'a@example.com', 'Hi', 'Hi', 'stored' from s, d, w`);
  return id;
}

const exists = async (relation: string) => {
  const [row] = await getDb().execute<{ r: string | null }>(sql`select to_regclass(${relation})::text as r`);
  return row!.r !== null;
};

const runIds = async () =>
  (await getDb().execute<{ id: string }>(sql`select id::text from automation_runs`)).map((r) => r.id);

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  await ensureBuiltins(shop.tenant.id);
  purgeId = (await builtinAutomation(shop.tenant.id, "purge-run-history"))!.id;
});

describe("the purge on partitioned run history", () => {
  test("drops a month every shop's retention has passed, batch-deletes the rest, leaves recent months alone", async () => {
    const now = new Date();
    const before = new Date(now.getTime() - 90 * DAY);
    const current = await month(now);
    const cutoffMonth = await month(before);
    const name = async (m: number) =>
      (await monthPartitions()).find((p) => p.month === m)?.runs ?? `automation_runs (month ${m})`;
    for (const m of [current - 6, current - 5, cutoffMonth])
      await getDb().execute(sql`select automation_run_partition_create(${m}::int)`);
    expect(await ensureRunPartitions()).toBe(0);
    const start = async (m: number) => {
      const [row] = await getDb().execute<{ at: string }>(
        sql`select automation_run_month_start(${m}::int) as at`,
      );
      return new Date(row!.at);
    };
    const oldStart = await start(current - 6);
    const keptStart = await start(current - 5);

    const old1 = await runAt(shop.tenant.id, purgeId, new Date(oldStart.getTime() + DAY));
    const old2 = await runAt(shop.tenant.id, purgeId, new Date(oldStart.getTime() + 2 * DAY), "failed");
    const keptMine = await runAt(shop.tenant.id, purgeId, new Date(keptStart.getTime() + DAY));
    // The other shop has no purge built-in: it keeps its history, so this month cannot be dropped.
    const otherAutomation = crypto.randomUUID();
    await getDb().execute(sql`
      insert into automations (id, tenant_id, name, status, version, draft_graph)
      values (${otherAutomation}, ${other.tenant.id}, 'Theirs', 'active', 1, '{"nodes":[],"edges":[]}')`);
    const keptTheirs = await runAt(other.tenant.id, otherAutomation, new Date(keptStart.getTime() + DAY));
    const boundaryOld = await runAt(shop.tenant.id, purgeId, new Date(before.getTime() - 60_000));
    const boundaryNew = await runAt(shop.tenant.id, purgeId, new Date(before.getTime() + 60_000));
    const recent = await runAt(shop.tenant.id, purgeId, new Date(now.getTime() - 60_000));
    const running = await runAt(shop.tenant.id, purgeId, new Date(now.getTime() - 60_000), "running");
    const oldPartition = await name(current - 6);
    const keptPartition = await name(current - 5);
    const boundaryPartition = await name(cutoffMonth);
    const recentPartition = await name(current);
    const recentRows = async () =>
      (
        await getDb().execute<{ n: number }>(
          sql`select count(*)::int as n from ${sql.identifier(recentPartition)}`,
        )
      )[0]!.n;
    const recentBefore = await recentRows();

    const ctx: ActionContext = {
      tenantId: shop.tenant.id,
      runId: crypto.randomUUID(),
      automationId: purgeId,
      automationName: "Purge run history",
      automationVersion: 1,
      nodeId: "purge",
      leg: 1,
      dedupeKey: "purge",
      entity: null,
      event: {
        id: "e",
        type: "schedule.fired",
        domain: "schedule",
        entityId: null,
        entityStatus: null,
        payload: {},
        occurredAt: now.toISOString(),
      },
      steps: {},
      render: (template) => template,
      now,
    };
    const output = await purgeRunHistoryExecutor.send(
      purgeRunHistoryExecutor.prepare({ retentionDays: 90 }, ctx),
      ctx,
    );
    expect(output).toMatchObject({ partitionsDropped: [oldPartition], runsDeleted: 2 });

    // The old month is gone, tables and all; what pointed at its runs was removed or unlinked.
    expect(await exists(oldPartition)).toBe(false);
    expect(await exists(oldPartition.replace("automation_runs_", "automation_run_steps_"))).toBe(false);
    const [links] = await getDb().execute<{
      waits: number;
      deliveries: number;
      keys: number;
      emails: number;
    }>(sql`
      select (select count(*)::int from automation_run_waits where run_id in (${old1}, ${old2})) as waits,
             (select count(*)::int from action_deliveries where run_id in (${old1}, ${old2})) as deliveries,
             (select count(*)::int from automation_run_keys where run_id in (${old1}, ${old2})) as keys,
             (select count(*)::int from outbox_emails where tenant_id = ${shop.tenant.id} and run_id is null) as emails`);
    // Unlinked emails: the two of the dropped month, and the two batch-deleted runs' (set null).
    expect(links).toEqual({ waits: 0, deliveries: 0, keys: 0, emails: 4 });

    // The month another shop keeps stays; this shop's run in it was deleted in a batch.
    expect(await exists(keptPartition)).toBe(true);
    expect(await exists(boundaryPartition)).toBe(true);
    const ids = await runIds();
    expect(ids).toEqual(expect.arrayContaining([keptTheirs, boundaryNew, recent, running]));
    for (const gone of [old1, old2, keptMine, boundaryOld]) expect(ids).not.toContain(gone);
    const [steps] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from automation_run_steps where run_id in (${keptMine}, ${boundaryOld})`,
    );
    expect(steps!.n).toBe(0);
    // This month's partition was not touched.
    expect(await recentRows()).toBe(recentBefore);

    // Run again: nothing more to drop or delete.
    const again = await purgeRunHistoryExecutor.send(
      purgeRunHistoryExecutor.prepare({ retentionDays: 90 }, ctx),
      ctx,
    );
    expect(again).toMatchObject({ partitionsDropped: [], runsDeleted: 0 });
  });

  test("a month with a run still going is not dropped", async () => {
    const now = new Date();
    const m = (await month(now)) - 8;
    await getDb().execute(sql`select automation_run_partition_create(${m}::int)`);
    const [row] = await getDb().execute<{ at: string }>(
      sql`select automation_run_month_start(${m}::int) as at`,
    );
    const stuck = await runAt(
      shop.tenant.id,
      purgeId,
      new Date(new Date(row!.at).getTime() + DAY),
      "waiting",
    );
    const ctx = { tenantId: shop.tenant.id, runId: crypto.randomUUID(), now } as Pick<
      ActionContext,
      "tenantId" | "runId" | "now"
    >;
    const output = await purgeRunHistoryExecutor.send(
      { retentionDays: 90, before: new Date(now.getTime() - 90 * DAY).toISOString() },
      ctx as ActionContext,
    );
    expect(output).toMatchObject({ partitionsDropped: [], runsDeleted: 0 });
    expect(await runIds()).toContain(stuck);
  });
});

describe("partitions ahead of time", () => {
  test("the reaper's call makes a month's partitions and the next month's, once; a run can then be stored there", async () => {
    // Three months ahead stands in for "a month from now, next year": nothing has made them yet.
    const at = new Date(Date.now() + 3 * 31 * DAY);
    const m = await month(at);
    const names = async () =>
      (await monthPartitions())
        .filter((p) => p.month === m || p.month === m + 1)
        .map((p) => [p.runs, p.steps !== null]);
    expect(await names()).toEqual([]);
    expect(await ensureRunPartitions(getDb(), at)).toBe(2);
    expect(await ensureRunPartitions(getDb(), at)).toBe(0);
    expect((await names()).map(([, steps]) => steps)).toEqual([true, true]);
    const id = await runAt(shop.tenant.id, purgeId, at);
    const [row] = await getDb().execute<{ p: string }>(
      sql`select tableoid::regclass::text as p from automation_runs where id = ${id}`,
    );
    expect(row!.p).toBe((await names())[0]![0]);
  });
});
