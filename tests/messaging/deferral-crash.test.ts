import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PUT as messagingRoute } from "@/app/api/v1/automations/[id]/messaging/route";
import { PUT as shopMessagingRoute } from "@/app/api/v1/shop/messaging/route";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";

/*
 * Issue 51: nothing is lost or sent twice when the worker is SIGKILLed while deferred messages
 * wake. Three automations (high, normal, low) one event starts for each of 12 customers, a cap of
 * 1 per 16 hours: one email each at once, and when the window opens the deferred ones wake while
 * real worker processes are killed again and again. Each message goes exactly once, in priority
 * order. The larger round is in `npm run chaos` (bench/chaos/messaging.ts).
 */

let shop: TestShop;
const CUSTOMERS = 12;
const ids: Record<"high" | "normal" | "low", string> = { high: "", normal: "", low: "" };

beforeAll(async () => {
  shop = await createShop();
  const limits = await call(shopMessagingRoute, {
    method: "PUT",
    key: shop.keys.admin,
    body: { quietHours: null, cap: { count: 1, hours: 16 } },
  });
  expect(limits.status, JSON.stringify(limits.body)).toBe(200);
  for (const priority of ["high", "normal", "low"] as const) {
    ids[priority] = await publishFlow(
      shop.keys.editor,
      `Marketing ${priority}`,
      flow(
        [
          { id: "t", type: "auto.trigger.customer_created" },
          {
            id: "mail",
            type: "auto.action.send_email",
            params: { to: "{entity.email}", subject: priority, body: "Hello.", purpose: "marketing" },
          },
        ],
        [["t", "mail"]],
      ),
    );
    const set = await call(messagingRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: ids[priority] },
      body: { priority },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
});
afterAll(() => killWorkers());

async function advance(ms: number) {
  const by = `${ms} milliseconds`;
  const t = shop.tenant.id;
  await getDb().transaction(async (tx) => {
    await tx.execute(
      sql`update customer_message_sends set sent_at = sent_at - ${by}::interval where tenant_id = ${t}`,
    );
    await tx.execute(sql`update message_deferrals set deferred_at = deferred_at - ${by}::interval,
      due_at = due_at - ${by}::interval where tenant_id = ${t}`);
    await tx.execute(
      sql`update automation_runs set created_at = created_at - ${by}::interval where tenant_id = ${t}`,
    );
    await tx.execute(sql`with moved as (
        update automation_run_waits set resume_at = resume_at - ${by}::interval
        where tenant_id = ${t} and status = 'pending' returning id::text as key)
      update graphile_worker._private_jobs j set run_at = j.run_at - ${by}::interval
      from moved where j.key = moved.key`);
  });
}

const state = async () =>
  (
    await getDb().execute<{ emails: number; busy: number; due: number; failed: number }>(sql`
  select
    (select count(*) from outbox_emails where tenant_id = ${shop.tenant.id})::int as emails,
    (select count(*) from automation_runs where tenant_id = ${shop.tenant.id}
      and status in ('queued', 'running'))::int as busy,
    (select count(*) from automation_run_waits where tenant_id = ${shop.tenant.id} and status = 'pending'
      and resume_at <= now())::int as due,
    (select count(*) from automation_runs where tenant_id = ${shop.tenant.id}
      and status in ('failed', 'partial', 'cancelled'))::int as failed`)
  )[0]!;

/** Kills the worker twice at random moments while work is due, then leaves one running. */
async function killWhileWaking(worker: ChildProcess): Promise<ChildProcess> {
  let current = worker;
  for (let i = 0; i < 2; i++) {
    // Once it has started (its heartbeat is in), a moment into its work.
    const pid = current.pid!;
    await until(
      async () =>
        (
          await getDb().execute<{ n: number }>(
            sql`select count(*)::int as n from worker_heartbeats where pid = ${pid} and stopped_at is null`,
          )
        )[0]!.n,
      (n) => n > 0,
      { timeoutMs: 180_000, intervalMs: 100, what: "the worker to start" },
    );
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 1_000));
    const exited = new Promise((resolve) => current.once("exit", resolve));
    current.kill("SIGKILL");
    await exited;
    current = spawnWorker();
  }
  return current;
}

async function settle(emails: number) {
  await until(state, (s) => s.busy === 0 && s.due === 0 && s.emails >= emails, {
    timeoutMs: 240_000,
    intervalMs: 200,
    what: `${emails} emails and nothing due`,
  });
}

test("a worker SIGKILLed while deferred messages wake: each message goes exactly once, by priority", async () => {
  let worker = spawnWorker();
  for (let i = 0; i < CUSTOMERS; i++)
    await upsertEntity(
      shop.tenant.id,
      "customer",
      `k-${i}`,
      { email: `k${i}@example.com`, acceptsMarketing: true },
      "test",
    );
  worker = await killWhileWaking(worker);
  await settle(CUSTOMERS);
  // Three windows: the normal ones wake (the low ones give way, then find the window used), then the low.
  for (const [window, emails] of [
    [1, 2 * CUSTOMERS],
    [2, 3 * CUSTOMERS],
  ] as const) {
    await advance(17 * 3_600_000);
    worker = await killWhileWaking(worker);
    await settle(emails);
    await advance(2 * 60_000);
    await settle(emails);
    expect((await state()).emails, `window ${window}`).toBe(emails);
  }
  const final = await state();
  expect(final.failed).toBe(0);
  expect(final.emails).toBe(3 * CUSTOMERS);
  const twice = await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from (select run_id, node_id from outbox_emails where tenant_id = ${shop.tenant.id}
      group by run_id, node_id having count(*) > 1) d`);
  expect(twice[0]!.n).toBe(0);
  const sends = await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from customer_message_sends where tenant_id = ${shop.tenant.id}`);
  expect(sends[0]!.n).toBe(3 * CUSTOMERS);
  // In priority order for every customer: high, then normal, then low.
  const order = await getDb().execute<{ customer_id: string; automations: string[] }>(sql`
    select customer_id, array_agg(automation_id::text order by sent_at) as automations
    from customer_message_sends where tenant_id = ${shop.tenant.id} group by customer_id`);
  expect(order).toHaveLength(CUSTOMERS);
  for (const row of order) expect(row.automations).toEqual([ids.high, ids.normal, ids.low]);
  const waiting = await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from message_deferrals where tenant_id = ${shop.tenant.id} and status = 'waiting'`);
  expect(waiting[0]!.n).toBe(0);
}, 900_000); // six worker processes start (tsx: long on a loaded machine), most killed once started
