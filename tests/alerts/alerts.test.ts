import http from "node:http";
import { and, eq, sql } from "drizzle-orm";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET as listAlerts, POST as createAlert } from "@/app/api/v1/alerts/route";
import { DELETE as deleteAlert, GET as getAlert, PUT as putAlert } from "@/app/api/v1/alerts/[id]/route";
import { GET as historyRoute } from "@/app/api/v1/alerts/history/route";
import { PUT as capsRoute } from "@/app/api/v1/automations/[id]/caps/route";
import { POST as credentialsRoute } from "@/app/api/v1/credentials/route";
import { POST as eventsRoute } from "@/app/api/v1/events/route";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { addMember } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { alertHistory, auditEvents, automationRuns, automationRunWaits, outboxEmails } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { renderMetrics } from "@/lib/metrics/metrics";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, waitThenTag } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

// Alerts (issue 28 item 1): rules evaluated by `evaluateAlerts` (the worker's `alert_evaluate`
// task, every minute; called here with a `now` to travel in time), sent by the real worker's
// `alert_send` jobs to a webhook receiver, a Slack receiver and the outbox.

const SECRET = `whsec_${Buffer.from("alerts-test-secret-0123456789abcdef").toString("base64")}`;
const MINUTE = 60_000;

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

let shop: TestShop;
let other: TestShop;
let base = "";
const received: Received[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : (v ?? "")]),
    );
    received.push({ path: req.url ?? "", headers, body });
    // `/bad` fails the flows' HTTP step (a 400 is not retried); everything else takes the post.
    res.writeHead(req.url === "/bad" ? 400 : 200, { "content-type": "text/plain" });
    res.end(req.url === "/bad" ? "no" : "ok");
  });
});

beforeAll(async () => {
  base = await listenLocally(server);
  shop = await createShop();
  other = await createShop();
  await addMember(shop.tenant.id, {
    email: `boss-${shop.tenant.slug}@demo.test`,
    name: "Boss",
    role: "admin",
    password: "tillflow-demo",
  });
});
afterAll(() => closeServer(server));
workerForFile();

const at = (path: string) => received.filter((r) => r.path === path);

async function rule(body: unknown, key = shop.keys.admin) {
  return call<{ id: string } & Record<string, unknown> & ErrorReply>(createAlert, {
    method: "POST",
    key,
    body,
  });
}

//  order_paid ──▶ call (HTTP POST to /bad: a 400, not retried) — every run fails
const failing = () =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_paid" },
      {
        id: "call",
        type: "auto.action.http_request",
        params: { url: `${base}/bad`, method: "POST", retry: { attempts: 1 } },
      },
    ],
    [["t", "call"]],
  );

/** `order.paid` events through the API, one request: ids `<prefix>-<i>`. */
async function paid(entityIds: string[], prefix: string, key = shop.keys.editor) {
  for (const id of entityIds)
    await upsertEntity(
      shop.tenant.id,
      "order",
      id,
      { number: `#${id}`, status: "pending", total: 10, currency: "EUR" },
      "test",
    );
  const reply = await call(eventsRoute, {
    method: "POST",
    key,
    body: entityIds.map((entityId, i) => ({
      id: `${prefix}-${i}`,
      type: "order.paid",
      domain: "order",
      entityId,
    })),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
}

const runsOf = (automationId: string) =>
  getDb()
    .select({ status: automationRuns.status })
    .from(automationRuns)
    .where(eq(automationRuns.automationId, automationId));

const historyOf = (ruleId: string) =>
  getDb().select().from(alertHistory).where(eq(alertHistory.ruleId, ruleId)).orderBy(alertHistory.createdAt);

/** Old succeeded runs of an automation, made straight in SQL: `count`, the newest `hoursAgo` old. */
async function pastRuns(automationId: string, count: number, hoursAgo: number, spacingMinutes = 5) {
  await getDb().execute(sql`
    insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id, event, domain, created_at, finished_at)
    select ${shop.tenant.id}, ${automationId}, 1, 'succeeded', 'past-' || ${automationId} || '-' || i, 't', '{}'::jsonb, 'order',
      now() - ${hoursAgo} * interval '1 hour' - i * ${spacingMinutes} * interval '1 minute',
      now() - ${hoursAgo} * interval '1 hour' - i * ${spacingMinutes} * interval '1 minute'
    from generate_series(0, ${count - 1}) i`);
}

describe("failed runs", () => {
  test("three failures make ONE signed webhook alert and ONE email; a fourth within 15 minutes waits for the next digest, with its count", async () => {
    const id = await publishFlow(shop.keys.editor, "Call the warehouse", failing());
    const hook = await rule({
      kind: "failed_runs",
      automationId: id,
      channel: { type: "webhook", url: `${base}/alerts`, secret: SECRET },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    expect(JSON.stringify(hook.body)).not.toContain(SECRET);
    const mail = await rule({ kind: "failed_runs", automationId: id, channel: { type: "email" } });
    expect(mail.status, JSON.stringify(mail.body)).toBe(201);

    await paid(["f-1", "f-2", "f-3"], "fail-a");
    await until(
      () => runsOf(id),
      (runs) => runs.length === 3 && runs.every((r) => r.status === "failed"),
      { timeoutMs: 20_000, what: "three failed runs" },
    );
    const t0 = new Date();
    const first = await evaluateAlerts({ now: t0 });
    expect(first.made.failed_runs).toBe(2); // one per rule
    await until(
      () => at("/alerts"),
      (r) => r.length === 1,
      { timeoutMs: 15_000, what: "the webhook alert" },
    );
    const [posted] = at("/alerts");
    // The receiver checks the signature with the Standard Webhooks library itself.
    const payload = new Webhook(SECRET).verify(posted!.body, posted!.headers) as Record<string, unknown>;
    expect(payload).toMatchObject({
      kind: "failed_runs",
      automationId: id,
      automationName: "Call the warehouse",
      count: 3,
    });
    expect(payload.message).toMatch(/^'Call the warehouse' had 3 runs that failed or partly failed since /);
    // It names the latest failed run's order and quotes its error, so the reader knows where to look.
    expect(payload.message).toMatch(
      / The latest was on order #f-[123] and said: “127\.0\.0\.1:\d+ answered 400 Bad Request\.”$/,
    );
    expect(payload.runsUrl).toMatch(
      new RegExp(`/automations/${id}/runs\\?status=failed_or_partial&from=\\d{4}-\\d\\d-\\d\\d$`),
    );
    expect(posted!.headers["webhook-id"]).toBe((await historyOf(hook.body.id))[0]!.id);

    const emails = await until(
      () => getDb().select().from(outboxEmails).where(eq(outboxEmails.tenantId, shop.tenant.id)),
      (rows) => rows.length >= 1,
      { timeoutMs: 15_000, what: "the alert's email" },
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: `boss-${shop.tenant.slug}@demo.test`,
      subject: "Alert: Call the warehouse",
    });
    expect(emails[0]!.bodyHtml).toContain(`/automations/${id}/runs?status=failed_or_partial`);
    await until(
      () => historyOf(mail.body.id),
      (rows) => rows[0]?.status === "sent",
      { timeoutMs: 15_000, what: "the email alert marked sent" },
    );

    // The same minute again: nothing new.
    expect((await evaluateAlerts({ now: new Date(t0.getTime() + 1_000) })).made.failed_runs).toBe(0);

    // A fourth failure 1 minute later is held for the digest...
    await paid(["f-4"], "fail-b");
    await until(
      () => runsOf(id),
      (runs) => runs.length === 4 && runs.every((r) => r.status === "failed"),
      { timeoutMs: 20_000, what: "the fourth failed run" },
    );
    expect((await evaluateAlerts({ now: new Date(Date.now() + MINUTE) })).made.failed_runs).toBe(0);
    // ...and sent, with its count, once 15 minutes have passed since the first.
    const digest = await evaluateAlerts({ now: new Date(t0.getTime() + 16 * MINUTE) });
    expect(digest.made.failed_runs).toBe(2);
    await until(
      () => at("/alerts"),
      (r) => r.length === 2,
      { timeoutMs: 15_000, what: "the digest" },
    );
    const second = new Webhook(SECRET).verify(at("/alerts")[1]!.body, at("/alerts")[1]!.headers) as Record<
      string,
      unknown
    >;
    expect(second).toMatchObject({ kind: "failed_runs", count: 1 });
    expect(second.message).toMatch(
      /had 1 run that failed or partly failed since .* The latest was on order #f-4 /,
    );
    expect((await evaluateAlerts({ now: new Date(t0.getTime() + 17 * MINUTE) })).made.failed_runs).toBe(0);
    expect((await historyOf(hook.body.id)).map((h) => [h.count, h.channel])).toEqual([
      [3, "webhook"],
      [1, "webhook"],
    ]);

    // The metric counts what this process (the worker in it) sent.
    const families = parsePrometheusTextFormat((await renderMetrics()).text);
    const sends = families.find((f) => f.name === "tillflow_alert_sends_total");
    const sent = sends?.metrics.find(
      (m) =>
        "labels" in m &&
        m.labels?.channel === "webhook" &&
        m.labels.outcome === "sent" &&
        m.labels.kind === "failed_runs",
    );
    expect(sent && "value" in sent ? Number(sent.value) : 0).toBe(2);
  });
});

describe("silence", () => {
  test("an automation that ran 25 times this week and not for 8 hours alerts once, not again on the next tick", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Welcome customers",
      flow(
        [
          { id: "t", type: "auto.trigger.customer_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "welcomed" } },
        ],
        [["t", "tag"]],
      ),
    );
    await pastRuns(id, 25, 8);
    const made = await rule({
      kind: "silence",
      automationId: id,
      params: { hours: 6 },
      channel: { type: "webhook", url: `${base}/quiet`, secret: SECRET },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const now = Date.now();
    expect((await evaluateAlerts({ now: new Date(now) })).made.silence).toBe(1);
    expect((await evaluateAlerts({ now: new Date(now + MINUTE) })).made.silence).toBe(0);
    expect((await evaluateAlerts({ now: new Date(now + 2 * 60 * MINUTE) })).made.silence).toBe(0);
    await until(
      () => at("/quiet"),
      (r) => r.length === 1,
      { timeoutMs: 15_000, what: "the silence alert" },
    );
    const body = new Webhook(SECRET).verify(at("/quiet")[0]!.body, at("/quiet")[0]!.headers) as Record<
      string,
      unknown
    >;
    expect(body.message).toMatch(
      /^'Welcome customers' usually runs about 4 times a day but has had no run for 6 hours/,
    );
  });
});

describe("storm", () => {
  test("over a set number of runs in an hour: one alert, not one a minute", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Tag refunds",
      flow(
        [
          { id: "t", type: "auto.trigger.refund_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "refund" } },
        ],
        [["t", "tag"]],
      ),
    );
    await pastRuns(id, 8, 0, 3);
    const made = await rule({
      kind: "storm",
      automationId: id,
      params: { maxRunsPerHour: 5 },
      channel: { type: "email" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const now = Date.now();
    expect((await evaluateAlerts({ now: new Date(now) })).made.storm).toBe(1);
    expect((await evaluateAlerts({ now: new Date(now + MINUTE) })).made.storm).toBe(0);
    const [alert] = await historyOf(made.body.id);
    expect(alert!.message).toBe(
      "'Tag refunds' started 8 runs in the last hour, more than the 5 runs an hour this alert allows.",
    );
  });

  test("a breached hourly cap alerts, and posts to Slack through a Slack credential", async () => {
    const slack = await call<{ id: string }>(credentialsRoute, {
      method: "POST",
      key: shop.keys.admin,
      body: { name: "Ops channel", kind: "slack_webhook", value: `${base}/slack/T000/B000/secret-path` },
    });
    expect(slack.status, JSON.stringify(slack.body)).toBe(201);
    const thank = flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        { id: "note", type: "auto.action.add_note", params: { body: "Thanks" } },
      ],
      [["t", "note"]],
    );
    const id = await publishFlow(shop.keys.editor, "Thank payers", thank);
    const capped = await call(capsRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { maxRunsPerHour: 1 },
    });
    expect(capped.status, JSON.stringify(capped.body)).toBe(200);
    const made = await rule({
      kind: "storm",
      automationId: id,
      channel: { type: "slack", credentialId: slack.body.id, channel: "#ops" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await paid(["c-1", "c-2", "c-3"], "cap");
    await until(
      () => runsOf(id),
      (runs) => runs.filter((r) => r.status === "held").length === 2,
      { timeoutMs: 20_000, what: "two held runs" },
    );
    expect((await evaluateAlerts()).made.storm).toBeGreaterThanOrEqual(1);
    const posts = await until(
      () => received.filter((r) => r.path.startsWith("/slack/")),
      (r) => r.length === 1,
      { timeoutMs: 15_000, what: "the Slack post" },
    );
    const text = JSON.parse(posts[0]!.body) as { text: string; channel: string };
    expect(text.channel).toBe("#ops");
    expect(text.text).toContain(
      "'Thank payers' started 1 run in the last hour and its hourly cap held 2 more runs.",
    );
    expect(text.text).toMatch(
      new RegExp(`<http[^|]+/automations/${id}/runs\\?from=[-\\d]+\\|See the runs in Tillflow>`),
    );
    expect(posts[0]!.headers["idempotency-key"]).toMatch(/^alert:/);
  });
});

describe("waits", () => {
  test("a wait an hour past due alerts as overdue; an approval reminded and undecided alerts too", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Follow up later",
      waitThenTag("later", { duration: 2, unit: "days" }),
    );
    const made = await rule({
      kind: "overdue_waits",
      automationId: id,
      params: { minutes: 30 },
      channel: { type: "email" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await upsertEntity(
      shop.tenant.id,
      "order",
      "w-1",
      { number: "#w-1", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    await until(
      () => getDb().select().from(automationRunWaits).where(eq(automationRunWaits.automationId, id)),
      (rows) => rows.length === 1,
      { timeoutMs: 20_000, what: "the wait" },
    );
    const now = Date.now();
    expect((await evaluateAlerts({ now: new Date(now) })).made.overdue_waits).toBe(0);
    // Its job is still two days away; only its due time moves back, as if the worker had been down.
    await getDb()
      .update(automationRunWaits)
      .set({ resumeAt: new Date(now - 60 * MINUTE) })
      .where(eq(automationRunWaits.automationId, id));
    expect((await evaluateAlerts({ now: new Date(now) })).made.overdue_waits).toBe(1);
    expect((await evaluateAlerts({ now: new Date(now + MINUTE) })).made.overdue_waits).toBe(0);
    expect((await historyOf(made.body.id))[0]!.message).toBe(
      "1 run of 'Follow up later' is still waiting more than 30 minutes after its wait was due.",
    );

    const review = await publishFlow(
      shop.keys.editor,
      "Review big orders",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          {
            id: "ok",
            type: "auto.control.approval",
            params: { title: "Review", timeoutHours: 72, remindAfterHours: 1, approverRole: "editor" },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "ok" } },
        ],
        [
          ["t", "ok"],
          ["ok", "tag", "approved"],
        ],
      ),
    );
    const approvals = await rule({
      kind: "approval_overdue",
      automationId: review,
      channel: { type: "email" },
    });
    expect(approvals.status, JSON.stringify(approvals.body)).toBe(201);
    await upsertEntity(
      shop.tenant.id,
      "order",
      "w-2",
      { number: "#w-2", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    await until(
      () => getDb().select().from(automationRunWaits).where(eq(automationRunWaits.automationId, review)),
      (rows) => rows.length === 1,
      { timeoutMs: 20_000, what: "the approval" },
    );
    expect((await evaluateAlerts()).made.approval_overdue).toBe(0);
    await getDb()
      .update(automationRunWaits)
      .set({ remindedAt: new Date(Date.now() - MINUTE) })
      .where(eq(automationRunWaits.automationId, review));
    expect((await evaluateAlerts()).made.approval_overdue).toBe(1);
    expect((await historyOf(approvals.body.id))[0]!.message).toBe(
      "1 approval in 'Review big orders' is still undecided after the approvers were reminded.",
    );
  });
});

describe("rules through the API", () => {
  test("admins change, editors and viewers read; viewers never see a webhook's path; secrets are never returned", async () => {
    const body = {
      kind: "failed_runs",
      channel: { type: "webhook", url: `${base}/private/token-123`, secret: SECRET },
    };
    for (const key of [shop.keys.viewer, shop.keys.editor]) {
      const refused = await rule(body, key);
      expect(refused.status).toBe(403);
    }
    const made = await rule(body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ automationId: null, automationName: null, enabled: true });
    const asEditor = await call<{ items: { id: string; channel: { url?: string } }[] }>(listAlerts, {
      key: shop.keys.editor,
    });
    expect(asEditor.status).toBe(200);
    expect(asEditor.body.items.find((r) => r.id === made.body.id)!.channel.url).toBe(
      `${base}/private/token-123`,
    );
    const asViewer = await call<{ channel: { url: string } }>(getAlert, {
      key: shop.keys.viewer,
      params: { id: made.body.id },
    });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.channel.url).toBe(`${base}/…`);
    for (const reply of [made, asEditor, asViewer]) {
      expect(JSON.stringify(reply.body)).not.toContain(SECRET);
      expect(JSON.stringify(reply.body)).not.toMatch(/sealed|whsec_/);
    }

    // Another shop: not found, and nothing changed.
    for (const handler of [getAlert, putAlert, deleteAlert]) {
      const reply = await call(handler, {
        method: handler === getAlert ? "GET" : handler === putAlert ? "PUT" : "DELETE",
        key: other.keys.admin,
        params: { id: made.body.id },
        body: handler === putAlert ? { enabled: false } : undefined,
      });
      expect(reply.status).toBe(404);
    }
    const theirs = await call<{ items: unknown[] }>(listAlerts, { key: other.keys.admin });
    expect(theirs.body.items).toEqual([]);

    // Invalid input: a plain sentence, and nothing written.
    const count = async () =>
      (
        await getDb().execute<{ n: number }>(
          sql`select count(*)::int as n from alert_rules where tenant_id = ${shop.tenant.id}`,
        )
      )[0]!.n;
    const before = await count();
    for (const [bad, words] of [
      [{ kind: "nope", channel: { type: "email" } }, /Choose what to watch/],
      [{ kind: "storm", channel: { type: "webhook", url: `${base}/x` } }, /signing secret/],
      [
        { kind: "storm", channel: { type: "webhook", url: "ftp://x", secret: SECRET } },
        /starting with https/,
      ],
      [{ kind: "storm", channel: { type: "webhook", url: `${base}/x`, secret: "hunter2" } }, /whsec_/],
      [{ kind: "storm", channel: { type: "pigeon" } }, /email, slack or webhook/],
      [{ kind: "storm", params: { hours: 0 }, channel: { type: "email" } }, /at least 1/],
    ] as const) {
      const reply = await rule(bad);
      expect(reply.status, JSON.stringify(reply.body)).toBe(422);
      expect(reply.body.error.message).toMatch(words);
    }
    const foreignAutomation = await publishFlow(other.keys.editor, "Theirs", failing());
    const foreign = await rule({
      kind: "storm",
      automationId: foreignAutomation,
      channel: { type: "email" },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.message).toMatch(/not found in this shop/);
    expect(await count()).toBe(before);

    // Update keeps the secret when it is left out; delete; each audited.
    const updated = await call<{ enabled: boolean; channel: { url: string } }>(putAlert, {
      method: "PUT",
      key: shop.keys.admin,
      params: { id: made.body.id },
      body: { enabled: false, channel: { type: "webhook", url: `${base}/moved` } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ enabled: false, channel: { url: `${base}/moved` } });
    const viewerPut = await call(putAlert, {
      method: "PUT",
      key: shop.keys.viewer,
      params: { id: made.body.id },
      body: { enabled: true },
    });
    expect(viewerPut.status).toBe(403);
    const gone = await call(deleteAlert, {
      method: "DELETE",
      key: shop.keys.admin,
      params: { id: made.body.id },
    });
    expect(gone.status).toBe(200);
    const audit = await getDb()
      .select({ action: auditEvents.action, detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, shop.tenant.id), eq(auditEvents.subjectId, made.body.id)));
    expect(audit.map((a) => a.action).sort()).toEqual(["alert.created", "alert.deleted", "alert.updated"]);
    expect(JSON.stringify(audit)).not.toContain("whsec_");
  });

  test("the history is keyset-paginated, a viewer reads it, and another shop sees none of it", async () => {
    const first = await call<{ items: { id: string; message: string }[]; nextCursor: string | null }>(
      historyRoute,
      {
        key: shop.keys.viewer,
        path: "/api/v1/alerts/history?limit=2",
      },
    );
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).not.toBeNull();
    const next = await call<{ items: { id: string }[] }>(historyRoute, {
      key: shop.keys.viewer,
      path: `/api/v1/alerts/history?limit=2&cursor=${first.body.nextCursor}`,
    });
    expect(next.body.items.length).toBeGreaterThan(0);
    expect(next.body.items.map((i) => i.id)).not.toContain(first.body.items[0]!.id);
    const theirs = await call<{ items: unknown[] }>(historyRoute, {
      key: other.keys.viewer,
      path: "/api/v1/alerts/history",
    });
    expect(theirs.body.items).toEqual([]);
    const bad = await call(historyRoute, { key: shop.keys.viewer, path: "/api/v1/alerts/history?limit=0" });
    expect(bad.status).toBe(422);
  });
});

describe("the worker", () => {
  test("its alert_evaluate task makes the alerts and its alert_send jobs send them", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Tag shipments",
      flow(
        [
          { id: "t", type: "auto.trigger.customer_created" },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "shipped" } },
        ],
        [["t", "tag"]],
      ),
    );
    await pastRuns(id, 4, 0, 2);
    const made = await rule({
      kind: "storm",
      automationId: id,
      params: { maxRunsPerHour: 2 },
      channel: { type: "webhook", url: `${base}/worker`, secret: SECRET },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await enqueueJobs(getDb(), [{ task: "alert_evaluate", payload: {} }]);
    const [sent] = await until(
      () => historyOf(made.body.id),
      (rows) => rows[0]?.status === "sent",
      { timeoutMs: 20_000, what: "the worker's storm alert, sent" },
    );
    expect(sent!.message).toBe(
      "'Tag shipments' started 4 runs in the last hour, more than the 2 runs an hour this alert allows.",
    );
    expect(at("/worker")).toHaveLength(1);
  });
});
