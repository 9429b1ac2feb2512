import { sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { POST as decideRoute } from "@/app/api/v1/approvals/[waitId]/route";
import { createApiKey } from "@/lib/auth/api-keys";
import { addMember } from "@/lib/auth/users";
import type { ApprovalView } from "@/lib/automations/waits/approvals";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";

/*
 * Votes survive a worker SIGKILLed while they arrive (issue 53): votes are rows, the deciding vote
 * moves the wait's job in its own transaction (one job key: the dedupe), so a worker killed while
 * it resumes runs on them loses none and repeats none, and the same person voting twice at once
 * is counted once.
 */

const RUNS = 20;

afterAll(() => killWorkers());

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(query);
  return row!.n;
}

test("a worker SIGKILLed mid-vote loses no vote and follows each approval once", async () => {
  const shop = await createShop();
  const keys: string[] = [];
  for (const name of ["ada", "bea"]) {
    const member = await addMember(shop.tenant.id, {
      email: `${name}-${shop.tenant.slug}@demo.test`,
      name,
      role: "admin",
      password: "tillflow-demo",
    });
    keys.push((await createApiKey(shop.tenant.id, { name, role: "admin", createdBy: member.userId })).key);
  }
  const [ada, bea] = keys as [string, string];
  const automationId = await publishFlow(
    shop.keys.admin,
    "Two admins",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "review",
          type: "auto.control.approval",
          params: { title: "Refund", timeoutHours: 72, approvers: [{ role: "admin", required: 2 }] },
        },
        { id: "ok", type: "auto.action.add_tag", params: { tag: "approved" } },
      ],
      [
        ["t", "review"],
        ["review", "ok", "approved"],
      ],
    ),
  );
  const first = spawnWorker();
  for (let i = 0; i < RUNS; i++) {
    const order = { number: `#${i}`, total: 1200, currency: "EUR" };
    await upsertEntity(shop.tenant.id, "order", `v-${i}`, { ...order, status: "pending" }, "test");
    await upsertEntity(shop.tenant.id, "order", `v-${i}`, { ...order, status: "paid" }, "test");
  }
  await expect
    .poll(
      () =>
        count(sql`select count(*)::int as n from automation_run_waits
                  where automation_id = ${automationId} and kind = 'approval' and status = 'pending'`),
      { timeout: 90_000, interval: 100 },
    )
    .toBe(RUNS);
  const waits = await getDb().execute<{ id: string }>(
    sql`select id from automation_run_waits where automation_id = ${automationId} order by created_at`,
  );
  const vote = (waitId: string, key: string) =>
    call<ApprovalView & ErrorReply>(decideRoute, {
      method: "POST",
      key,
      params: { waitId },
      body: { decision: "approved" },
    });

  // Ada votes on each twice at once (the inbox and the API, say): one counts, the other is a 409.
  for (const { id } of waits) {
    const both = await Promise.all([vote(id, ada), vote(id, ada)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
  }
  // Bea's votes decide them; the worker is killed halfway, while it resumes the first ones.
  for (const [i, { id }] of waits.entries()) {
    if (i === RUNS / 2) first.kill("SIGKILL");
    const reply = await vote(id, bea);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.status).toBe("approved");
  }

  spawnWorker();
  // Release the dead worker's jobs now rather than at the next minute's sweep.
  await new Promise((r) => setTimeout(r, 4_000));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);
  await expect
    .poll(
      () =>
        count(sql`select count(*)::int as n from automation_runs
                  where automation_id = ${automationId} and status = 'succeeded'`),
      { timeout: 120_000, interval: 250 },
    )
    .toBe(RUNS);
  expect(
    await count(sql`select count(*)::int as n from approval_votes v
                    join automation_run_waits w on w.id = v.wait_id where w.automation_id = ${automationId}`),
  ).toBe(RUNS * 2);
  // Each run followed 'Approved' once: one tag step per run, one tag on each order.
  expect(
    await count(sql`select count(*)::int as n from automation_run_steps s
                    join automation_runs r on r.id = s.run_id
                    where r.automation_id = ${automationId} and s.node_id = 'ok' and s.status = 'success'`),
  ).toBe(RUNS);
  expect(
    await count(sql`select count(*)::int as n from entities
                    where tenant_id = ${shop.tenant.id} and array_length(array_positions(tags, 'approved'), 1) = 1`),
  ).toBe(RUNS);
}, 240_000);
