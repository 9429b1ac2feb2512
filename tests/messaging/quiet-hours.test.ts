import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { PUT as shopMessagingRoute } from "@/app/api/v1/shop/messaging/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { listRuns } from "@/lib/automations/runs/history";
import type { RunDetail } from "@/lib/automations/runs/detail";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { workerForFile } from "@/tests/helpers/worker";
import { eq } from "drizzle-orm";

/*
 * Issue 51, item 3: quiet hours (21:00–08:00) hold in each customer's own time zone — their
 * `timezone`, else their address's, else the shop's — in five zones (and one chosen to be deep in
 * its night now, so the wait is always exercised); a marketing email inside them waits until 08:00
 * there and says so in the customer's and the shop's time; a transactional email never waits. The
 * expected answer comes from Intl's wall clock, not from the code under test. DST days are covered
 * by lib/messaging/quiet.test.ts. Real worker, real Postgres.
 */

let shop: TestShop;
const SHOP_ZONE = "America/New_York";
beforeAll(async () => {
  shop = await createShop();
  await getDb().update(tenants).set({ timezone: SHOP_ZONE }).where(eq(tenants.id, shop.tenant.id));
  const set = await call(shopMessagingRoute, {
    method: "PUT",
    key: shop.keys.admin,
    body: { quietHours: { start: "21:00", end: "08:00" }, cap: null },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
});
workerForFile();

const hourIn = (zone: string, at: Date) =>
  Number(new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", hourCycle: "h23" }).format(at));
const clockIn = (zone: string, at: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);

/** A zone where it is between 01:00 and 05:59 now: deep in quiet hours whatever the test's hour. */
function nightZone(): string {
  const now = new Date();
  return Intl.supportedValuesOf("timeZone").find(
    (z) => z.includes("/") && hourIn(z, now) >= 1 && hourIn(z, now) <= 5,
  )!;
}

const mail = (id: string, purpose: "marketing" | "transactional") =>
  flow(
    [
      { id: "t", type: "auto.trigger.customer_created" },
      {
        id,
        type: "auto.action.send_email",
        params: { to: "{entity.email}", subject: "Hi", body: "News.", purpose },
      },
    ],
    [["t", id]],
  );

describe("quiet hours in the customer's time", () => {
  test("five zones and a night one: marketing waits until 08:00 there, transactional goes at once", async () => {
    const marketing = await publishFlow(shop.keys.editor, "Newsletter", mail("news", "marketing"));
    const transactional = await publishFlow(
      shop.keys.editor,
      "Account notice",
      mail("notice", "transactional"),
    );
    const night = nightZone();
    const customers: [string, Record<string, unknown>, string][] = [
      ["la", { country: "US", province: "CA" }, "America/Los_Angeles"],
      ["ny", { timezone: "America/New_York" }, "America/New_York"],
      ["berlin", { country: "Germany" }, "Europe/Berlin"],
      ["kolkata", { timezone: "Asia/Kolkata" }, "Asia/Kolkata"],
      ["sydney", { countryCode: "AU" }, "Australia/Sydney"],
      ["night", { timezone: night }, night],
    ];
    const started = new Date();
    for (const [id, where] of customers)
      await upsertEntity(
        shop.tenant.id,
        "customer",
        id,
        { email: `${id}@example.com`, name: id, acceptsMarketing: true, ...where },
        "test",
      );
    const runs = await until(
      () =>
        getDb().execute<{ id: string; automation_id: string; entity_id: string; status: string }>(sql`
          select id, automation_id, entity_id, status from automation_runs where tenant_id = ${shop.tenant.id}`),
      (rows) => rows.length === 12 && rows.every((r) => ["waiting", "succeeded"].includes(r.status)),
      { timeoutMs: 15_000, intervalMs: 100, what: "12 runs to settle or wait" },
    );
    const emails = await getDb().execute<{ to: string; node_id: string }>(sql`
      select "to", node_id from outbox_emails where tenant_id = ${shop.tenant.id}`);

    for (const [id, , zone] of customers) {
      // Transactional: always at once.
      expect(emails.filter((e) => e.to === `${id}@example.com` && e.node_id === "notice")).toHaveLength(1);
      const run = runs.find((r) => r.entity_id === id && r.automation_id === marketing)!;
      const hour = hourIn(zone, started);
      const quiet = hour >= 21 || hour < 8;
      const sent = emails.filter((e) => e.to === `${id}@example.com` && e.node_id === "news");
      expect({ id, zone, hour, sent: sent.length, status: run.status }).toEqual({
        id,
        zone,
        hour,
        sent: quiet ? 0 : 1,
        status: quiet ? "waiting" : "succeeded",
      });
      if (!quiet) continue;
      const [wait] = await getDb().execute<{ kind: string; resume_at: string }>(sql`
        select kind, resume_at from automation_run_waits where run_id = ${run.id} and status = 'pending'`);
      expect(wait!.kind).toBe("deferred");
      expect(clockIn(zone, new Date(wait!.resume_at))).toBe("08:00");
      const detail = await call<RunDetail>(runRoute, { key: shop.keys.viewer, params: { id: run.id } });
      const step = detail.body.steps.find((s) => s.nodeId === "news" && s.status === "waiting")!;
      expect(step.reason).toMatch(/^Waiting for quiet hours to end \(21:00–08:00\): sends at 08:00/);
      expect(step.reason).toContain(`in the customer's time (${zone})`);
      if (zone !== SHOP_ZONE) expect(step.reason).toContain(`in the shop's (${SHOP_ZONE})`);
    }
    expect(runs.filter((r) => r.automation_id === transactional).every((r) => r.status === "succeeded")).toBe(
      true,
    );

    // The Waiting list says the same.
    const waiting = await listRuns(shop.tenant.id, { status: "waiting", automationId: marketing, limit: 50 });
    const nightRun = waiting.items.find((r) => r.entityId === "night")!;
    expect(nightRun.nextWait?.kind).toBe("deferred");
    expect(nightRun.nextWait?.deferred).toContain(`in the customer's time (${night})`);
  });
});
