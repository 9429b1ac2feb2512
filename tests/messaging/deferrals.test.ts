import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { PUT as messagingRoute } from "@/app/api/v1/automations/[id]/messaging/route";
import { PUT as shopMessagingRoute } from "@/app/api/v1/shop/messaging/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import { outboxEmails } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import type { RunDetail } from "@/lib/automations/runs/detail";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Issue 51, item 4: the shop's cap across automations defers by priority. Three automations one
 * event starts for one customer send exactly one at once — the highest priority — and the others
 * later, in priority order, each after the conditions on its path are checked again; deferred
 * past the automation's expiry, a message is skipped. Real worker, real Postgres. Time is moved by
 * shifting the shop's sends, deferrals, waits and their jobs back (`advance`), never by sleeping.
 */

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
  const off = await call(shopMessagingRoute, {
    method: "PUT",
    key: shop.keys.admin,
    body: { quietHours: null, cap: { count: 1, hours: 16 } },
  });
  expect(off.status, JSON.stringify(off.body)).toBe(200);
});
workerForFile();

//  customer_created ──▶ new (ordersCount = 0) ──true──▶ mail (send_email, marketing)
const recovery = (subject: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.customer_created" },
      { id: "new", type: "auto.condition.field", params: { path: "ordersCount", operator: "eq", value: 0 } },
      {
        id: "mail",
        type: "auto.action.send_email",
        params: { to: "{entity.email}", subject, body: "Hello.", purpose: "marketing" },
      },
    ],
    [
      ["t", "new"],
      ["new", "mail", "true"],
    ],
  );

const ids: Record<"high" | "normal" | "low", string> = { high: "", normal: "", low: "" };

/** Moves the shop's clock forward by `ms`: what was recorded and what is due moves back. */
async function advance(ms: number) {
  const db = getDb();
  const by = `${ms} milliseconds`;
  const t = shop.tenant.id;
  await db.execute(
    sql`update customer_message_sends set sent_at = sent_at - ${by}::interval where tenant_id = ${t}`,
  );
  await db.execute(sql`update message_deferrals set deferred_at = deferred_at - ${by}::interval,
    due_at = due_at - ${by}::interval where tenant_id = ${t}`);
  await db.execute(
    sql`update automation_runs set created_at = created_at - ${by}::interval where tenant_id = ${t}`,
  );
  const waits = await db.execute<{
    id: string;
  }>(sql`update automation_run_waits set resume_at = resume_at - ${by}::interval
    where tenant_id = ${t} and status = 'pending' returning id`);
  await db.execute(sql`update graphile_worker._private_jobs set run_at = run_at - ${by}::interval
    where key = any(${`{${waits.map((w) => w.id).join(",")}}`}::text[])`);
}

async function runsOf(customerId: string) {
  return getDb().execute<{ id: string; automation_id: string; status: string }>(sql`
    select id, automation_id, status from automation_runs
    where tenant_id = ${shop.tenant.id} and entity_id = ${customerId} order by created_at`);
}

async function emailsTo(to: string) {
  return getDb()
    .select({ runId: outboxEmails.runId })
    .from(outboxEmails)
    .where(and(eq(outboxEmails.tenantId, shop.tenant.id), eq(outboxEmails.to, to)))
    .orderBy(outboxEmails.createdAt);
}

const HOUR = 3_600_000;
const automationOf = async (runId: string) =>
  (
    await getDb().execute<{ a: string }>(
      sql`select automation_id as a from automation_runs where id = ${runId}`,
    )
  )[0]!.a;

/**
 * Waits until the customer's runs are all settled or waiting, nothing of theirs is due (no wait,
 * no deferral), and `sent` emails went: read in one statement, so no wake slips between reads.
 */
async function settle(customerId: string, email: string, sent: number) {
  const t = shop.tenant.id;
  await until(
    async () =>
      (
        await getDb().execute<{ runs: number; busy: number; due: number; emails: number }>(sql`
      select
        (select count(*) from automation_runs where tenant_id = ${t} and entity_id = ${customerId})::int as runs,
        (select count(*) from automation_runs where tenant_id = ${t} and entity_id = ${customerId}
          and status not in ('waiting', 'succeeded'))::int as busy,
        (select count(*) from automation_run_waits w join automation_runs r on r.id = w.run_id
          where w.tenant_id = ${t} and r.entity_id = ${customerId} and w.status = 'pending' and w.resume_at <= now())
          + (select count(*) from message_deferrals where tenant_id = ${t} and customer_id = ${customerId}
          and status = 'waiting' and due_at <= now()) as due,
        (select count(*) from outbox_emails where tenant_id = ${t} and "to" = ${email})::int as emails`)
      )[0]!,
    (s) => s.runs === 3 && s.busy === 0 && Number(s.due) === 0 && s.emails === sent,
    { timeoutMs: 15_000, intervalMs: 100, what: `${customerId}'s runs to settle with ${sent} email(s)` },
  );
  // Nothing more goes out once they have settled.
  expect(await emailsTo(email)).toHaveLength(sent);
}

async function stepsOf(runId: string) {
  const detail = await call<RunDetail>(runRoute, { key: shop.keys.viewer, params: { id: runId } });
  expect(detail.status).toBe(200);
  return detail.body.steps;
}

beforeAll(async () => {
  for (const [priority, name] of [
    ["high", "Cart recovery"],
    ["normal", "Browse reminder"],
    ["low", "Newsletter"],
  ] as const) {
    ids[priority] = await publishFlow(shop.keys.editor, name, recovery(name));
    const set = await call(messagingRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id: ids[priority] },
      body: { priority },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
});

describe("three automations one event starts for one customer", () => {
  test("exactly one goes at once, the highest priority; the others follow in priority order, each re-checked", async () => {
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "ada",
      { email: "ada@example.com", name: "Ada", firstName: "Ada", acceptsMarketing: true, ordersCount: 0 },
      "test",
    );
    await settle("ada", "ada@example.com", 1);
    const [first] = await emailsTo("ada@example.com");
    expect(await automationOf(first!.runId!)).toBe(ids.high);

    // A minute on: the two that gave way look again and find the cap full.
    await advance(2 * 60_000);
    await settle("ada", "ada@example.com", 1);
    const capped = await getDb().execute<{ automation_id: string; kind: string; due_at: string }>(sql`
      select automation_id, kind, due_at from message_deferrals where tenant_id = ${shop.tenant.id}
        and customer_id = 'ada' and status = 'waiting' order by priority desc`);
    expect(capped.map((d) => [d.automation_id, d.kind])).toEqual([
      [ids.normal, "cap"],
      [ids.low, "cap"],
    ]);
    expect(new Date(capped[0]!.due_at).getTime()).toBeGreaterThan(Date.now() + 13 * HOUR);

    // The window opens: both wake together; exactly one goes — the normal one.
    await advance(17 * HOUR);
    await settle("ada", "ada@example.com", 2);
    const second = (await emailsTo("ada@example.com"))[1]!;
    expect(await automationOf(second.runId!)).toBe(ids.normal);
    const normalRun = (await runsOf("ada")).find((r) => r.automation_id === ids.normal)!;
    const normalSteps = await stepsOf(normalRun.id);
    expect(
      normalSteps.some((s) => s.reason?.startsWith("Deferred by the shop's limit of 1 marketing message")),
    ).toBe(true);
    expect(
      normalSteps.filter((s) => s.nodeId === "mail" && s.category === "action" && s.status === "success"),
    ).toHaveLength(1);

    // Ada orders meanwhile: when the newsletter's turn comes, its path no longer holds.
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "ada",
      { email: "ada@example.com", name: "Ada", firstName: "Ada", acceptsMarketing: true, ordersCount: 1 },
      "test",
    );
    await advance(17 * HOUR);
    await settle("ada", "ada@example.com", 2);
    const low = (await runsOf("ada")).find((r) => r.automation_id === ids.low)!;
    expect(low.status).toBe("succeeded");
    const skipped = (await stepsOf(low.id)).filter((s) => s.nodeId === "mail" && s.status === "skipped");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(
      /^Skipped: when its turn came, a condition on its path no longer held/,
    );
    const resolved = await getDb().execute<{ status: string }>(sql`
      select status from message_deferrals where tenant_id = ${shop.tenant.id} and customer_id = 'ada'
      order by priority desc`);
    expect(resolved.map((r) => r.status)).toEqual(["sent", "skipped"]);
  });

  test("deferred past the automation's expiry (48 hours), a message is skipped with the reason", async () => {
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "bo",
      { email: "bo@example.com", name: "Bo", firstName: "Bo", acceptsMarketing: true, ordersCount: 0 },
      "test",
    );
    await settle("bo", "bo@example.com", 1);
    await advance(49 * HOUR);
    await settle("bo", "bo@example.com", 1);
    const runs = await runsOf("bo");
    expect(runs.every((r) => r.status === "succeeded")).toBe(true);
    for (const run of runs.filter((r) => r.automation_id !== ids.high)) {
      const mail = (await stepsOf(run.id)).filter((s) => s.nodeId === "mail" && s.status === "skipped");
      expect(mail[0]!.reason).toBe(
        "Skipped: deferred for more than 48 hours (this automation's expiry), so it was not sent.",
      );
    }
  });
});
