import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeAll, expect, test } from "vitest";
import { PUT as shopMessagingRoute } from "@/app/api/v1/shop/messaging/route";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { gateMarketing, gateRead, type GateInput, type GateOutcome } from "@/lib/messaging/gate";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/*
 * Issue 51: what the gate reads, on real Postgres. Its one read touches no partitioned table (run
 * history is partitioned by month: Postgres would plan every partition on every call); a run's
 * liveness is read by id, and only when it decides the answer — so a rival whose run was
 * cancelled, or a higher-priority run of the same event that has finished, holds nothing back,
 * while live ones still go first. The read sees the sending transaction's own writes. The gate is
 * called directly, on a clock of its own (quiet hours off, 1 message per 16 hours).
 */

let shop: TestShop;
const automations: Record<"high" | "normal" | "low", string> = { high: "", normal: "", low: "" };
const T0 = new Date("2026-06-10T12:00:00Z");
const HOUR = 3_600_000;

beforeAll(async () => {
  shop = await createShop();
  const limits = await call(shopMessagingRoute, {
    method: "PUT",
    key: shop.keys.admin,
    body: { quietHours: null, cap: { count: 1, hours: 16 } },
  });
  expect(limits.status, JSON.stringify(limits.body)).toBe(200);
  for (const priority of ["high", "normal", "low"] as const) {
    const [row] = await getDb().execute<{ id: string }>(sql`
      insert into automations (tenant_id, name, status, version, draft_graph, message_priority)
      values (${shop.tenant.id}, ${`Marketing ${priority}`}, 'active', 1, '{"nodes":[],"edges":[]}'::jsonb,
        ${priority})
      returning id`);
    automations[priority] = row!.id;
  }
});

type Priority = keyof typeof automations;

/** A customer and the runs one event started for them in the three automations, in these statuses. */
async function customerWithRuns(customerId: string, statuses: Record<Priority, string>) {
  await upsertEntity(
    shop.tenant.id,
    "customer",
    customerId,
    { email: `${customerId}@example.com`, acceptsMarketing: true, timezone: "UTC" },
    "test",
  );
  const eventId = `event-${customerId}`;
  const runs = {} as Record<Priority, string>;
  for (const priority of ["high", "normal", "low"] as const) {
    const [row] = await getDb().execute<{ id: string }>(sql`
      insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
        event, domain, entity_id)
      values (${shop.tenant.id}, ${automations[priority]}, 1, ${statuses[priority]}, ${eventId}, 't', '{}'::jsonb,
        'customer', ${customerId})
      returning id`);
    runs[priority] = row!.id;
  }
  const input = (priority: Priority): GateInput => ({
    tenantId: shop.tenant.id,
    customerId,
    automationId: automations[priority],
    runId: runs[priority],
    nodeId: "mail",
    eventId,
    path: [],
    pathChanged: null,
  });
  return { runs, input };
}

const gate = (input: GateInput, at: Date) => getDb().transaction((tx) => gateMarketing(tx, input, at));
const outcome = (gate: GateOutcome) => (gate.go ? "go" : (gate.skip ?? gate.kind));
const setStatus = (runId: string, status: string) =>
  getDb().execute(sql`update automation_runs set status = ${status} where id = ${runId}`);

test("the gate's read plans no partition of run history", async () => {
  const { input } = await customerWithRuns("plan", { high: "waiting", normal: "waiting", low: "waiting" });
  const { sql: text, params } = new PgDialect().sqlToQuery(gateRead(input("low"), T0));
  const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  const inlined = text.replace(/\$(\d+)\b/g, (_, n: string) => literal(params[Number(n) - 1]));
  const rows = await getDb().execute<{ plan: string }>(sql.raw(`explain (costs off) ${inlined}`));
  const plan = rows.map((r) => Object.values(r)[0]).join("\n");
  expect(plan).toContain("message_deferrals");
  expect(plan).not.toContain("automation_runs");
});

test("a deferred rival of higher rank goes first while its run is live, not once it was cancelled", async () => {
  const { runs, input } = await customerWithRuns("rival", {
    high: "waiting",
    normal: "waiting",
    low: "waiting",
  });
  expect(outcome(await gate(input("high"), T0))).toBe("go");
  expect(outcome(await gate(input("normal"), T0))).toBe("cap");
  expect(outcome(await gate(input("low"), T0))).toBe("cap");
  // The window opens: normal's deferral is due and ranks above low's, its run still waiting.
  const later = new Date(T0.getTime() + 16 * HOUR + 60_000);
  expect(outcome(await gate(input("low"), later))).toBe("yield");
  // The merchant cancels normal's run: its deferral stays `waiting` but holds nothing back.
  await setStatus(runs.normal, "cancelled");
  expect(outcome(await gate(input("low"), later))).toBe("go");
  const deferrals = await getDb().execute<{ run_id: string; status: string }>(sql`
    select run_id, status from message_deferrals where tenant_id = ${shop.tenant.id} and customer_id = 'rival'`);
  expect(Object.fromEntries(deferrals.map((d) => [d.run_id, d.status]))).toEqual({
    [runs.normal]: "waiting",
    [runs.low]: "sent",
  });
});

test("a higher-priority run of the same event still on its way goes first; finished, it holds nothing", async () => {
  const { runs, input } = await customerWithRuns("sibling", {
    high: "queued",
    normal: "running",
    low: "running",
  });
  expect(outcome(await gate(input("normal"), T0))).toBe("yield");
  expect(outcome(await gate(input("low"), T0))).toBe("yield");
  // High's run ended without a message (a condition said no): it holds nothing back any more,
  // but low's other higher sibling (normal) is still running.
  await setStatus(runs.high, "succeeded");
  expect(outcome(await gate(input("low"), T0))).toBe("yield");
  expect(outcome(await gate(input("normal"), T0))).toBe("go");
  // Normal's message went: low is now held by the shop's cap, not by a sibling.
  expect(outcome(await gate(input("low"), T0))).toBe("cap");
});

test("the read sees what the sending transaction wrote before it", async () => {
  const { runs, input } = await customerWithRuns("own", {
    high: "waiting",
    normal: "waiting",
    low: "waiting",
  });
  const answer = await getDb().transaction(async (tx) => {
    // A higher-ranked message of this customer, deferred and due, written in this transaction.
    await tx.execute(sql`
      insert into message_deferrals (tenant_id, customer_id, automation_id, run_id, node_id, priority, deferred_at,
        due_at, kind, reason)
      values (${shop.tenant.id}, 'own', ${automations.high}, ${runs.high}, 'mail', 3,
        ${new Date(T0.getTime() - HOUR).toISOString()}::timestamptz, ${T0.toISOString()}::timestamptz, 'cap', 'test')`);
    return gateMarketing(tx, input("low"), T0);
  });
  expect(outcome(answer)).toBe("yield");
});
