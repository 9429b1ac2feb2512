import http from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
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
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

/*
 * Issue 51: an HTTP step marked "reaches the customer", for marketing, meets the same gate as Send
 * email — consent and unsubscribe, quiet hours and the shop's cap, deferring by priority — and a
 * marketing email to several customers goes only when it may go to each (message-gate.ts). Real
 * worker, real Postgres, a real receiver; time is moved by shifting the shop's rows back.
 */

let shop: TestShop;
const requests: string[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    requests.push(body);
    res.end("ok");
  });
});
let url = "";

beforeAll(async () => {
  url = `${await listenLocally(server)}/sms`;
  shop = await createShop();
  const limits = await call(shopMessagingRoute, {
    method: "PUT",
    key: shop.keys.admin,
    body: { quietHours: null, cap: { count: 1, hours: 16 } },
  });
  expect(limits.status, JSON.stringify(limits.body)).toBe(200);
});
workerForFile();
afterAll(() => closeServer(server));

const HOUR = 3_600_000;

async function advance(ms: number, t = shop.tenant.id) {
  const db = getDb();
  const by = `${ms} milliseconds`;
  await db.execute(
    sql`update customer_message_sends set sent_at = sent_at - ${by}::interval where tenant_id = ${t}`,
  );
  await db.execute(sql`update message_deferrals set deferred_at = deferred_at - ${by}::interval,
    due_at = due_at - ${by}::interval where tenant_id = ${t}`);
  await db.execute(
    sql`update automation_runs set created_at = created_at - ${by}::interval where tenant_id = ${t}`,
  );
  const waits = await db.execute<{ id: string }>(sql`update automation_run_waits
    set resume_at = resume_at - ${by}::interval where tenant_id = ${t} and status = 'pending' returning id`);
  await db.execute(sql`update graphile_worker._private_jobs set run_at = run_at - ${by}::interval
    where key = any(${`{${waits.map((w) => w.id).join(",")}}`}::text[])`);
}

/** Until the shop's runs for these customers are all settled or waiting with nothing due. */
async function settle(customerIds: string[], runs: number) {
  const t = shop.tenant.id;
  const ids = `{${customerIds.join(",")}}`;
  await until(
    async () =>
      (
        await getDb().execute<{ runs: number; busy: number; due: number }>(sql`
      select
        (select count(*) from automation_runs where tenant_id = ${t} and entity_id = any(${ids}::text[]))::int as runs,
        (select count(*) from automation_runs where tenant_id = ${t} and entity_id = any(${ids}::text[])
          and status not in ('waiting', 'succeeded'))::int as busy,
        (select count(*) from automation_run_waits w join automation_runs r on r.id = w.run_id
          where w.tenant_id = ${t} and r.entity_id = any(${ids}::text[]) and w.status = 'pending'
            and w.resume_at <= now())::int as due`)
      )[0]!,
    (s) => s.runs === runs && s.busy === 0 && s.due === 0,
    { timeoutMs: 20_000, intervalMs: 100, what: `${customerIds.join(", ")}'s runs to settle` },
  );
}

async function stepsOf(runId: string, of = shop) {
  const detail = await call<RunDetail>(runRoute, { key: of.keys.viewer, params: { id: runId } });
  expect(detail.status).toBe(200);
  return detail.body.steps;
}

async function runOf(automationId: string, customerId: string, of = shop) {
  const [run] = await getDb().execute<{ id: string; status: string }>(sql`
    select id, status from automation_runs where tenant_id = ${of.tenant.id}
      and automation_id = ${automationId} and entity_id = ${customerId}`);
  return run!;
}

async function setPriority(id: string, priority: "high" | "normal" | "low") {
  const set = await call(messagingRoute, {
    method: "PUT",
    key: shop.keys.editor,
    params: { id },
    body: { priority },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
}

test("an HTTP step that reaches the customer waits for the shop's cap by priority, and goes once", async () => {
  const email = await publishFlow(
    shop.keys.editor,
    "Cart recovery",
    flow(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: { to: "{entity.email}", subject: "Your cart", body: "Hello.", purpose: "marketing" },
        },
      ],
      [["t", "mail"]],
    ),
  );
  const sms = await publishFlow(
    shop.keys.editor,
    "SMS offer",
    flow(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        {
          id: "sms",
          type: "auto.action.http_request",
          params: {
            url,
            method: "POST",
            body: "offer for {entity.id}",
            reachesCustomer: true,
            purpose: "marketing",
          },
        },
      ],
      [["t", "sms"]],
    ),
  );
  await setPriority(email, "high");
  await setPriority(sms, "low");

  // Mia: the email (high) goes; the request (low) gives way, then waits for the cap's window.
  await upsertEntity(
    shop.tenant.id,
    "customer",
    "mia",
    { email: "mia@example.com", acceptsMarketing: true },
    "test",
  );
  await settle(["mia"], 2);
  await advance(2 * 60_000);
  await settle(["mia"], 2);
  expect(requests.filter((r) => r === "offer for mia")).toHaveLength(0);
  const held = await runOf(sms, "mia");
  expect(held.status).toBe("waiting");
  const waiting = (await stepsOf(held.id)).filter((s) => s.nodeId === "sms" && s.status === "waiting");
  expect(waiting.at(-1)?.reason).toMatch(/^Deferred by the shop's limit of 1 marketing message per customer/);
  const emails = await getDb()
    .select({ id: outboxEmails.id })
    .from(outboxEmails)
    .where(and(eq(outboxEmails.tenantId, shop.tenant.id), eq(outboxEmails.to, "mia@example.com")));
  expect(emails).toHaveLength(1);

  // The window opens: the request goes, exactly once, and counts against the cap.
  await advance(17 * HOUR);
  await settle(["mia"], 2);
  await until(
    async () => requests.filter((r) => r === "offer for mia").length,
    (n) => n >= 1,
    { timeoutMs: 10_000, intervalMs: 100, what: "the deferred request" },
  );
  expect((await runOf(sms, "mia")).status).toBe("succeeded");
  expect(requests.filter((r) => r === "offer for mia")).toHaveLength(1);
  const sends = await getDb().execute<{ automation_id: string }>(sql`
    select automation_id from customer_message_sends where tenant_id = ${shop.tenant.id} and customer_id = 'mia'
    order by sent_at`);
  expect(sends.map((s) => s.automation_id)).toEqual([email, sms]);

  // Noor does not accept marketing: the request is skipped and says why; nothing is sent or counted.
  await upsertEntity(
    shop.tenant.id,
    "customer",
    "noor",
    { email: "noor@example.com", acceptsMarketing: false },
    "test",
  );
  await settle(["noor"], 2);
  const refused = await runOf(sms, "noor");
  expect(refused.status).toBe("succeeded");
  const skipped = (await stepsOf(refused.id)).filter((s) => s.nodeId === "sms");
  expect(skipped.map((s) => s.status)).toEqual(["skipped"]);
  expect(skipped[0]!.reason).toMatch(/does not accept marketing/);
  expect(requests.filter((r) => r === "offer for noor")).toHaveLength(0);
  const counted = await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from customer_message_sends where tenant_id = ${shop.tenant.id} and customer_id = 'noor'`);
  expect(counted[0]!.n).toBe(0);
});

test("a marketing email to several customers waits while any of them is held, then counts for each", async () => {
  const duo = await createShop();
  const t = duo.tenant.id;
  const limits = await call(shopMessagingRoute, {
    method: "PUT",
    key: duo.keys.admin,
    body: { quietHours: null, cap: { count: 1, hours: 16 } },
  });
  expect(limits.status, JSON.stringify(limits.body)).toBe(200);
  // Jo has had a marketing message already this window.
  await upsertEntity(t, "customer", "jo", { email: "jo@example.com", acceptsMarketing: true }, "test");
  await getDb().execute(sql`
    insert into customer_message_sends (tenant_id, customer_id, automation_id, run_id, node_id, sent_at)
    values (${t}, 'jo', gen_random_uuid(), gen_random_uuid(), 'elsewhere', now())`);
  const both = await publishFlow(
    duo.keys.editor,
    "Both of them",
    flow(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: {
            to: "{entity.email}, jo@example.com",
            subject: "For you two",
            body: "Hi.",
            purpose: "marketing",
          },
        },
      ],
      [["t", "mail"]],
    ),
  );
  await upsertEntity(t, "customer", "ivy", { email: "ivy@example.com", acceptsMarketing: true }, "test");
  const emailsToBoth = async () =>
    getDb()
      .select({ id: outboxEmails.id })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.tenantId, t), eq(outboxEmails.to, "ivy@example.com, jo@example.com")));
  const sendsOf = async (customerId: string) =>
    (
      await getDb().execute<{ n: number }>(sql`
    select count(*)::int as n from customer_message_sends where tenant_id = ${t} and customer_id = ${customerId}`)
    )[0]!.n;
  await until(
    async () => (await runOf(both, "ivy", duo))?.status,
    (s) => s === "waiting",
    { timeoutMs: 20_000, intervalMs: 100, what: "the email to wait" },
  );
  expect(await emailsToBoth()).toHaveLength(0);
  const run = await runOf(both, "ivy", duo);
  const waiting = (await stepsOf(run.id, duo)).filter((s) => s.nodeId === "mail" && s.status === "waiting");
  expect(waiting.at(-1)?.reason).toMatch(/^Deferred by the shop's limit/);
  // Nothing counted for Ivy while it waits for Jo's window.
  expect(await sendsOf("ivy")).toBe(0);

  await advance(17 * HOUR, t);
  await until(
    async () => (await runOf(both, "ivy", duo)).status,
    (s) => s === "succeeded",
    { timeoutMs: 20_000, intervalMs: 100, what: "the email to go" },
  );
  expect(await emailsToBoth()).toHaveLength(1);
  expect(await sendsOf("ivy")).toBe(1);
  expect(await sendsOf("jo")).toBe(2);
});
