import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { PUT as shopMessagingRoute } from "@/app/api/v1/shop/messaging/route";
import { runLegs } from "@/lib/automations/engine/pipeline";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { customerLockKey, lockCustomers, LockOrderConflict } from "@/lib/messaging/locks";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

/*
 * Issue 51: the gate's per-customer locks cannot deadlock. Two batches that cross the same two
 * customers in opposite orders both finish, and Postgres counts no deadlock
 * (`pg_stat_database.deadlocks`): a phase takes its customers' locks at once, in key order, and a
 * lock below one held is only tried (lib/messaging/locks.ts). No worker: the batches are run here.
 */

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
  const limits = await call(shopMessagingRoute, {
    method: "PUT",
    key: shop.keys.admin,
    body: { quietHours: null, cap: { count: 5, hours: 16 } },
  });
  expect(limits.status, JSON.stringify(limits.body)).toBe(200);
});

const deadlocks = async () =>
  (
    await getDb().execute<{ n: number }>(
      sql`select deadlocks::int as n from pg_stat_database where datname = current_database()`,
    )
  )[0]!.n;

test("two batches crossing the same two customers in opposite orders both finish, no deadlock", async () => {
  const mail = (subject: string) =>
    flow(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: { to: "{entity.email}", subject, body: "Hello.", purpose: "marketing" },
        },
      ],
      [["t", "mail"]],
    );
  const one = await publishFlow(shop.keys.editor, "One", mail("One"));
  const two = await publishFlow(shop.keys.editor, "Two", mail("Two"));
  const before = await deadlocks();
  const rounds = 6;
  for (let round = 0; round < rounds; round++) {
    const [a, b] = [`lock-a-${round}`, `lock-b-${round}`];
    for (const id of [a, b])
      await upsertEntity(
        shop.tenant.id,
        "customer",
        id,
        { email: `${id}@example.com`, acceptsMarketing: true },
        "test",
      );
    const runs = await getDb().execute<{ id: string; automation_id: string; entity_id: string }>(sql`
      select id, automation_id, entity_id from automation_runs
      where tenant_id = ${shop.tenant.id} and entity_id in (${a}, ${b})`);
    const runOf = (automation: string, entity: string) =>
      runs.find((r) => r.automation_id === automation && r.entity_id === entity)!.id;
    // Batch 1 reaches a then b; batch 2 reaches b then a: the old per-leg order locked crosswise.
    const outcomes = await Promise.all([
      runLegs([
        { kind: "start", runId: runOf(one, a) },
        { kind: "start", runId: runOf(one, b) },
      ]),
      runLegs([
        { kind: "start", runId: runOf(two, b) },
        { kind: "start", runId: runOf(two, a) },
      ]),
    ]);
    for (const results of outcomes) expect([...results.values()]).toEqual(["ran", "ran"]);
  }
  const statuses = await getDb().execute<{ status: string; n: number }>(sql`
    select status, count(*)::int as n from automation_runs
    where tenant_id = ${shop.tenant.id} and automation_id in (${one}, ${two}) group by status`);
  expect(statuses).toEqual([{ status: "succeeded", n: rounds * 4 }]);
  const sends = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from customer_message_sends where tenant_id = ${shop.tenant.id}`,
  );
  expect(sends[0]!.n).toBe(rounds * 4);
  expect(await deadlocks()).toBe(before);
});

test("a lock below one held is tried, never waited for: the transaction gives way instead", async () => {
  const t = shop.tenant.id;
  const ids = ["x-1", "x-2", "x-3", "x-4"].sort((p, q) => {
    const [kp, kq] = [customerLockKey(t, p), customerLockKey(t, q)];
    return kp < kq ? -1 : kp > kq ? 1 : 0;
  });
  const [low, high] = [ids[0]!, ids[3]!];
  const before = await deadlocks();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const holds = new Promise<void>((resolve) => (holding = resolve));
  // One transaction holds the low key until told…
  const holder = getDb().transaction(async (tx) => {
    await lockCustomers(tx, [{ tenantId: t, customerId: low }]);
    holding();
    await released;
  });
  await holds;
  // …another, holding the high key, asks for the low one: it may not wait, so it gives way.
  const asker = getDb().transaction(async (tx) => {
    await lockCustomers(tx, [{ tenantId: t, customerId: high }]);
    await lockCustomers(tx, [{ tenantId: t, customerId: low }]);
  });
  await expect(asker).rejects.toBeInstanceOf(LockOrderConflict);
  release();
  await holder;
  // Both in one call, in either order: taken sorted, and taken again (held) at no cost.
  await Promise.all([
    getDb().transaction((tx) =>
      lockCustomers(tx, [
        { tenantId: t, customerId: high },
        { tenantId: t, customerId: low },
      ]),
    ),
    getDb().transaction((tx) =>
      lockCustomers(tx, [
        { tenantId: t, customerId: low },
        { tenantId: t, customerId: high },
      ]),
    ),
  ]);
  expect(await deadlocks()).toBe(before);
});
