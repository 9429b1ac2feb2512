import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { insertTouches, type NewTouch } from "@/lib/automations/store/touches";
import { attributedRevenueSummary } from "@/lib/automations/performance/earners";
import { automationPerformance } from "@/lib/automations/performance/report";
import { canvasPerformance } from "@/lib/automations/performance/overlay";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { publishFlow } from "@/tests/helpers/flows";
import { mailFlow, seededRandom } from "./mix";

/*
 * Issue 50, "fast at scale": the dashboard's rollup (`automation_revenue_days`, kept by a trigger
 * as orders are attributed) equals a recount from the attributed orders after a random mix of
 * touches, orders in three currencies, replayed and repeated order events and holdouts; the
 * Performance report's one data statement equals a recount from the raw rows. Real Postgres, no
 * worker: touches are written as the engine writes them, orders as any path records them.
 */

let shop: TestShop;
const automations: string[] = [];

const { random, pick } = seededRandom(50);

beforeAll(async () => {
  shop = await createShop();
  for (const name of ["Welcome", "Win back", "Thanks"])
    automations.push(await publishFlow(shop.keys.editor, name, mailFlow(name)));
  const db = getDb();
  const customers = Array.from({ length: 40 }, (_, i) => `r${i}`);
  // Touches: messages down two branches, held-out entries, treated entries; some replayed.
  const touches: NewTouch[] = [];
  for (let i = 0; i < 160; i++) {
    const c = pick(customers);
    const kind = pick(["message", "message", "message", "holdout", "entered"] as const);
    touches.push({
      tenantId: shop.tenant.id,
      kind,
      customerId: random() < 0.7 ? c : null,
      email: `${c}@example.com`,
      automationId: pick(automations),
      automationVersion: pick([1, 2]),
      runId: crypto.randomUUID(),
      nodeId: kind === "message" ? pick(["mail", "mail-b"]) : "t",
      leg: 1,
      branch: kind === "message" ? pick([null, "a", "b"]) : null,
      // Spread over the last two days, so orders find different latest touches.
      at: new Date(Date.now() - Math.floor(random() * 2880) * 60_000).toISOString(),
    });
  }
  await insertTouches(db, touches);
  await insertTouches(db, touches.slice(0, 30)); // replayed steps add nothing
  // Orders: three currencies (one none), amounts to the cent; a third of them sent twice.
  for (let i = 0; i < 120; i++) {
    const c = pick(customers);
    const payload = {
      total: (Math.floor(random() * 100_000) / 100).toFixed(2),
      ...(random() < 0.9 ? { currency: pick(["EUR", "EUR", "USD"]) } : {}),
      email: `${c.toUpperCase()}@Example.com`,
      ...(random() < 0.5 ? { customerId: c } : {}),
    };
    const times = random() < 0.33 ? 2 : 1;
    for (let n = 0; n < times; n++)
      await db.execute(sql`
        insert into events (tenant_id, id, type, domain, entity_id, payload)
        values (${shop.tenant.id}::uuid, ${`rollup-${i}-${n}`}, ${n === 0 ? "order.paid" : "order.created"}, 'order',
          ${`rollup-order-${i}`}, ${JSON.stringify({ ...payload, status: "paid" })}::jsonb)`);
  }
});

describe("the revenue rollup", () => {
  test("equals a recount from the attributed orders, to the cent, per shop day, automation and currency", async () => {
    const [counts] = await getDb().execute<{ orders: number; messages: number; holdouts: number }>(sql`
      select count(*)::int as orders, count(*) filter (where touch_kind = 'message')::int as messages,
        count(*) filter (where touch_kind = 'holdout')::int as holdouts
      from order_attributions where tenant_id = ${shop.tenant.id}::uuid`);
    // The mix is what it claims: orders attributed to messages and to held-out entries.
    expect(counts!.messages).toBeGreaterThan(20);
    expect(counts!.holdouts).toBeGreaterThan(0);
    const mismatches = await getDb().execute(sql`
      with recount as (
        select o.tenant_id, (o.at at time zone t.timezone)::date as day, o.automation_id, coalesce(o.currency, '') as currency,
          count(*)::int as conversions, sum(o.amount) as revenue
        from order_attributions o join tenants t on t.id = o.tenant_id
        where o.tenant_id = ${shop.tenant.id}::uuid and o.touch_kind = 'message'
        group by 1, 2, 3, 4),
      rollup as (select * from automation_revenue_days where tenant_id = ${shop.tenant.id}::uuid)
      select * from recount r full join rollup u using (tenant_id, day, automation_id, currency)
      where r.conversions is distinct from u.conversions or r.revenue is distinct from u.revenue`);
    expect(mismatches).toEqual([]);
  });

  test("the dashboard's total and top earners are the attributed orders' sums, other currencies apart", async () => {
    const s = await attributedRevenueSummary(shop.tenant.id);
    const byCurrency = await getDb().execute<{ currency: string | null; n: number; revenue: string }>(sql`
      select currency, count(*)::int as n, to_char(sum(amount), 'FM999999999999990.00') as revenue
      from order_attributions where tenant_id = ${shop.tenant.id}::uuid and touch_kind = 'message'
      group by currency order by count(*) desc, currency`);
    const main = byCurrency[0]!;
    expect(s.currency).toBe(main.currency);
    expect(s.revenue).toBe(main.revenue);
    expect(s.conversions).toBe(main.n);
    expect(s.otherCurrencies.map((c) => [c.currency, c.revenue]).sort()).toEqual(
      byCurrency
        .slice(1)
        .map((c) => [c.currency, c.revenue])
        .sort(),
    );
    const perAutomation = await getDb().execute<{ automation_id: string; revenue: string }>(sql`
      select automation_id, to_char(sum(amount), 'FM999999999999990.00') as revenue from order_attributions
      where tenant_id = ${shop.tenant.id}::uuid and touch_kind = 'message' and currency is not distinct from ${main.currency}
      group by 1 order by sum(amount) desc`);
    expect(s.top.map((t) => [t.automationId, t.revenue])).toEqual(
      perAutomation.slice(0, 5).map((r) => [r.automation_id, r.revenue]),
    );
    // Another shop sees none of it.
    const other = await createShop();
    expect((await attributedRevenueSummary(other.tenant.id)).top).toEqual([]);
  });

  test("the Performance report's numbers equal a recount from the raw touches and orders", async () => {
    for (const id of automations) {
      const r = await automationPerformance(shop.tenant.id, id, {});
      const [raw] = await getDb().execute<{ touches: number; recipients: number; entered: number }>(sql`
        select count(*) filter (where kind = 'message')::int as touches,
          count(distinct recipient) filter (where kind = 'message')::int as recipients,
          count(distinct recipient) filter (where kind = 'entered')::int as entered
        from automation_touches where tenant_id = ${shop.tenant.id}::uuid and automation_id = ${id}::uuid`);
      expect([r.touches, r.recipients]).toEqual([raw!.touches, raw!.recipients]);
      const orders = await getDb().execute<{ currency: string | null; n: number; revenue: string }>(sql`
        select currency, count(*)::int as n, to_char(sum(amount), 'FM999999999999990.00') as revenue
        from order_attributions where tenant_id = ${shop.tenant.id}::uuid and automation_id = ${id}::uuid
          and touch_kind = 'message'
        group by currency`);
      const main = orders.find((o) => o.currency === r.currency);
      expect([r.conversions, r.revenue]).toEqual([main?.n ?? 0, main?.revenue ?? "0.00"]);
      expect(r.bySteps.reduce((n, s) => n + s.conversions, 0)).toBe(r.conversions);
      expect(r.byVersion.reduce((n, v) => n + v.touches, 0)).toBe(r.touches);
      expect(r.byDay.reduce((n, d) => n + d.touches, 0)).toBe(r.touches);
      if (r.holdout) expect(r.holdout.treated.customers).toBe(raw!.entered);
      // The canvas overlay's steps agree with the report's.
      const overlay = await canvasPerformance(shop.tenant.id, id);
      for (const step of r.bySteps) {
        expect(overlay.steps[step.nodeId]?.reached).toBe(step.recipients);
        expect(overlay.steps[step.nodeId]?.revenue).toBe(step.revenue);
      }
    }
  });
});
