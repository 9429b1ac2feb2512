import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { insertTouches, type NewTouch } from "@/lib/automations/store/touches";
import { automationPerformance } from "@/lib/automations/performance/report";
import { canvasPerformance } from "@/lib/automations/performance/overlay";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { publishFlow } from "@/tests/helpers/flows";
import { mailFlow, seededRandom } from "./mix";

/*
 * Issue 50, "fast at scale" with numbers a merchant acts on: the Performance tab counts distinct
 * customers reached from its rollups (`automation_reach_days`, kept by the touches' statement
 * trigger), and those counts equal a recount from the raw touches for any period and version —
 * after a random mix over 45 days in a shop far from UTC: a bulk write, single writes in shuffled
 * order (days arriving before earlier ones), replays, and writers of the same customers at once.
 * Real Postgres; touches are written by the store function the engine uses.
 */

let shop: TestShop;
const automations: string[] = [];
const TZ = "America/Los_Angeles";

const { random, pick } = seededRandom(36);
const customers = Array.from({ length: 30 }, (_, i) => `k${i}`);

function touch(daysAgo = Math.floor(random() * 45)): NewTouch {
  const c = pick(customers);
  const kind = pick(["message", "message", "message", "message", "holdout", "entered"] as const);
  return {
    tenantId: shop.tenant.id,
    kind,
    customerId: random() < 0.7 ? c : null,
    email: `${c}@example.com`,
    automationId: pick(automations),
    automationVersion: pick([1, 2, 3]),
    runId: crypto.randomUUID(),
    nodeId: kind === "message" ? pick(["mail", "mail-b"]) : "t",
    leg: 1,
    branch: kind === "message" ? pick([null, "a", "b"]) : null,
    at: new Date(Date.now() - daysAgo * 86_400_000 - Math.floor(random() * 86_400_000)).toISOString(),
  };
}

beforeAll(async () => {
  shop = await createShop();
  await getDb().execute(sql`update tenants set timezone = ${TZ} where id = ${shop.tenant.id}::uuid`);
  for (const name of ["Welcome", "Win back"])
    automations.push(await publishFlow(shop.keys.editor, name, mailFlow(name)));
  const db = getDb();
  // One bulk write, as a big phase or a backfill would.
  const bulk = Array.from({ length: 150 }, () => touch());
  await insertTouches(db, bulk);
  // Single writes, days in shuffled order: a day can land between two a customer already has.
  for (let i = 0; i < 80; i++) await insertTouches(db, [touch()]);
  // Replayed steps add nothing.
  await insertTouches(db, bulk.slice(0, 40));
  // Writers of the same few customers at once, on separate connections: each waits for the other
  // where they share a customer, so none counts from days it could not see.
  const few = customers.slice(0, 3);
  await Promise.all(
    Array.from({ length: 8 }, () =>
      insertTouches(
        db,
        Array.from({ length: 6 }, () => ({
          ...touch(Math.floor(random() * 4)),
          email: `${pick(few)}@example.com`,
        })),
      ),
    ),
  );
  // Attributed orders, so conversions by step and day are checked against their rows too.
  for (let i = 0; i < 40; i++) {
    const c = pick(customers);
    await db.execute(sql`
      insert into events (tenant_id, id, type, domain, entity_id, payload)
      values (${shop.tenant.id}::uuid, ${`reach-${i}`}, 'order.paid', 'order', ${`reach-order-${i}`},
        ${JSON.stringify({ total: (Math.floor(random() * 50_000) / 100).toFixed(2), currency: "EUR", email: `${c}@example.com` })}::jsonb)`);
  }
});

/** The shop's day `n` days ago, YYYY-MM-DD. */
async function shopDay(n: number): Promise<string> {
  const [row] = await getDb().execute<{ d: string }>(
    sql`select to_char((now() at time zone ${TZ})::date - ${n}::int, 'YYYY-MM-DD') as d`,
  );
  return row!.d;
}

// A type, not an interface: a row type of `execute` must be indexable.
type Raw = { dim: string; k: string | null; n: number };

/** Distinct customers from the raw touches, on the shop's days from–to, for a version or all. */
async function recount(
  id: string,
  from: string,
  to: string,
  version: number | null,
): Promise<Map<string, number>> {
  const v = version === null ? sql`` : sql`and automation_version = ${version}`;
  const rows = await getDb().execute<Raw>(sql`
    with t as (
      select kind, recipient, node_id, branch, automation_version, (at at time zone ${TZ})::date as d
      from automation_touches
      where tenant_id = ${shop.tenant.id}::uuid and automation_id = ${id}::uuid ${v}),
    p as (select * from t where d between ${from}::date and ${to}::date)
    select 'all' as dim, null as k, count(distinct recipient)::int as n from p where kind = 'message'
    union all select 'day', to_char(d, 'YYYY-MM-DD'), count(distinct recipient)::int from p where kind = 'message' group by d
    union all select 'step', node_id, count(distinct recipient)::int from p where kind = 'message' group by node_id
    union all select 'branch', branch, count(distinct recipient)::int from p
      where kind = 'message' and branch is not null group by branch
    union all select 'version', automation_version::text, count(distinct recipient)::int from p
      where kind = 'message' group by automation_version
    union all select 'entry', case kind when 'holdout' then 'held_out' else 'treated' end, count(distinct recipient)::int
      from p where kind in ('holdout', 'entered') group by 2
    union all select 'touches', null, count(*)::int from p where kind = 'message'`);
  return new Map(rows.filter((r) => r.n > 0).map((r) => [`${r.dim}:${r.k ?? ""}`, r.n]));
}

describe("customers reached, from the rollup", () => {
  test("the mix is what it claims: many customers on many days, repeat days, all kinds", async () => {
    const [mix] = await getDb().execute<{
      touches: number;
      days: number;
      repeats: number;
      kinds: number;
    }>(sql`
      select count(*)::int as touches, count(distinct (at at time zone ${TZ})::date)::int as days,
        (count(*) - count(distinct (recipient, automation_id, (at at time zone ${TZ})::date)))::int as repeats,
        count(distinct kind)::int as kinds
      from automation_touches where tenant_id = ${shop.tenant.id}::uuid`);
    expect(mix!.touches).toBeGreaterThan(250);
    expect(mix!.days).toBeGreaterThan(40);
    expect(mix!.repeats).toBeGreaterThan(10);
    expect(mix!.kinds).toBe(3);
  });

  test("equal a recount from the raw touches for any period and version", async () => {
    const periods: [number, number][] = [
      [29, 0],
      [6, 0],
      [0, 0],
      [44, 0],
      [40, 10],
      [20, 19],
      [365, 0],
    ];
    for (let i = 0; i < 5; i++) {
      const a = Math.floor(random() * 46);
      periods.push([a, Math.floor(random() * (a + 1))]);
    }
    let compared = 0;
    for (const id of automations)
      for (const [a, b] of periods)
        for (const version of [null, 1, 3]) {
          const from = await shopDay(a);
          const to = await shopDay(b);
          const r = await automationPerformance(shop.tenant.id, id, {
            from,
            to,
            ...(version === null ? {} : { version }),
          });
          const raw = await recount(id, from, to, version);
          const got = new Map<string, number>();
          const put = (key: string, n: number) => {
            if (n > 0) got.set(key, n);
          };
          put("all:", r.recipients);
          put("touches:", r.touches);
          for (const d of r.byDay) put(`day:${d.day}`, d.recipients);
          for (const s of r.bySteps) put(`step:${s.nodeId}`, s.recipients);
          for (const v of r.byVersion) put(`version:${v.version}`, v.recipients);
          for (const split of r.splits) for (const b of split.branches) put(`branch:${b.id}`, b.entered);
          if (r.holdout) {
            put("entry:treated", r.holdout.treated.customers);
            put("entry:held_out", r.holdout.heldOut.customers);
          } else {
            // No comparison without anyone held out (and no holdout set): treated entries alone show nothing.
            expect(raw.has("entry:held_out")).toBe(false);
            raw.delete("entry:treated");
          }
          const context = `${from}–${to}, version ${version ?? "any"}`;
          expect(Object.fromEntries(got), context).toEqual(Object.fromEntries(raw));
          compared += raw.size;
        }
    expect(compared).toBeGreaterThan(500);
  });

  test("conversions and revenue by step and day equal the attributed orders' rows", async () => {
    const [orders] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from order_attributions where tenant_id = ${shop.tenant.id}::uuid and touch_kind = 'message'`,
    );
    expect(orders!.n).toBeGreaterThan(5);
    for (const id of automations) {
      const r = await automationPerformance(shop.tenant.id, id, { from: await shopDay(44) });
      const rows = await getDb().execute<{ node_id: string; n: number; revenue: string }>(sql`
        select node_id, count(*)::int as n, to_char(sum(amount), 'FM999999999999990.00') as revenue
        from order_attributions where tenant_id = ${shop.tenant.id}::uuid and automation_id = ${id}::uuid
          and touch_kind = 'message' group by node_id order by node_id`);
      expect(
        r.bySteps
          .filter((s) => s.conversions > 0)
          .map((s) => [s.nodeId, s.conversions, s.revenue])
          .sort(),
      ).toEqual(rows.map((o) => [o.node_id, o.n, o.revenue]));
      expect(r.byDay.reduce((n, d) => n + d.conversions, 0)).toBe(r.conversions);
      // The canvas overlay reads the same rollups: each step's customers reached in the last 30 days.
      const overlay = await canvasPerformance(shop.tenant.id, id);
      const month = await automationPerformance(shop.tenant.id, id, {});
      for (const step of month.bySteps) expect(overlay.steps[step.nodeId]?.reached).toBe(step.recipients);
    }
  });

  test("another shop's rollups are its own", async () => {
    const other = await createShop();
    const [row] = await getDb().execute<{ n: number }>(sql`
      select (select count(*) from automation_reach_days where tenant_id = ${other.tenant.id}::uuid)
        + (select count(*) from automation_step_days where tenant_id = ${other.tenant.id}::uuid) as n`);
    expect(Number(row!.n)).toBe(0);
    await expect(automationPerformance(other.tenant.id, automations[0]!, {})).rejects.toThrow(/automation/i);
  });
});
