import http from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { POST as createCredentialRoute } from "@/app/api/v1/credentials/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * SPEC §3 `auto.action.slack {credentialId, text}`: a published flow's Slack step, run by the real
 * worker, posts `{ text }` to the incoming webhook its credential holds (here a local receiver,
 * which the tests' HTTP_ACTION_ALLOW lets the outbound guard call): values escaped for Slack, the
 * merchant's own text as written, a link back to the run. A 500 is retried and the message
 * delivered once; a 404 fails the step with a sentence; the webhook URL, a secret, is nowhere in
 * what the run recorded.
 */

/** The secret part of each webhook URL (Slack's `T…/B…/…` path): searched for in every record. */
const SECRET_PATH = "T0SLACK/B0SLACK/slack_secret_path_Q7";

let shop: TestShop;
let server: http.Server;
let base: string;
/** What the receiver was sent, per path. */
const seen = new Map<
  string,
  { method: string; contentType: string; idempotencyKey: string; body: string }[]
>();
/** Per path, the statuses to answer in turn (the last one repeats), with Slack's body. */
const script = new Map<string, { status: number; body: string }[]>();

beforeAll(async () => {
  shop = await createShop();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const got = seen.get(path) ?? [];
      got.push({
        method: req.method ?? "",
        contentType: String(req.headers["content-type"]),
        idempotencyKey: String(req.headers["idempotency-key"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      seen.set(path, got);
      const answers = script.get(path) ?? [{ status: 200, body: "ok" }];
      const answer = answers[Math.min(got.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { "content-type": "text/html" }).end(answer.body);
    });
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  await closeServer(server);
});
workerForFile();

/** A `slack_webhook` credential for `/hook/<name>/<secret path>` on the receiver. */
async function webhook(name: string): Promise<{ id: string; path: string }> {
  const path = `/hook/${name}/${SECRET_PATH}`;
  const created = await call<{ id: string }>(createCredentialRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: `Slack ${name}`, kind: "slack_webhook", value: `${base}${path}` },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id, path };
}

//  order_paid ──▶ slack(credential, text, retry 3 × 1 s fixed) ──▶ tag(posted)
async function slackFlow(credentialId: string, text: string) {
  return publishFlow(
    shop.keys.editor,
    `Slack ${credentialId}`,
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "slack",
          type: "auto.action.slack",
          params: { credentialId, text, retry: { attempts: 3, backoff: "fixed", initialSeconds: 1 } },
        },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "posted" } },
      ],
      [
        ["t", "slack"],
        ["slack", "tag"],
      ],
    ),
  );
}

async function pay(id: string, number = `#${id}`) {
  const order = { number, status: "pending", total: 65, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", id, order, "test");
  await upsertEntity(shop.tenant.id, "order", id, { ...order, status: "paid" }, "test");
}

/** Every row the run left — run, steps, deliveries, waits — as JSON text. */
async function recorded(runId: string): Promise<string> {
  const rows = await getDb().execute<{ row: string }>(sql`
    select row_to_json(r)::text as row from automation_runs r where id = ${runId}
    union all select row_to_json(s)::text from automation_run_steps s where run_id = ${runId}
    union all select row_to_json(d)::text from action_deliveries d where run_id = ${runId}
    union all select row_to_json(w)::text from automation_run_waits w where run_id = ${runId}`);
  return rows.map((r) => r.row).join("\n");
}

async function steps(runId: string) {
  return getDb().execute<{
    node_id: string;
    leg: number;
    status: string;
    error: string | null;
    output: Record<string, unknown> | null;
  }>(
    sql`select node_id, leg, status, error, output from automation_run_steps where run_id = ${runId} order by leg, position`,
  );
}

async function runReply(runId: string): Promise<string> {
  const reply = await call<unknown>(runRoute, {
    path: `/api/v1/runs/${runId}`,
    key: shop.keys.viewer,
    params: { id: runId },
  });
  expect(reply.status).toBe(200);
  return JSON.stringify(reply.body);
}

describe("Post to Slack", () => {
  test("posts JSON { text } with the values escaped for Slack, the merchant's own text as written and the run's link", async () => {
    const hook = await webhook("posted");
    const id = await slackFlow(
      hook.id,
      "*Paid* {entity.number} for {entity.total | money} <https://shop.test/orders|Open orders>",
    );
    await pay("s-1", "#7 <!channel> & co");
    const [run] = await settledRuns(id, 1, 20_000);
    expect(run!.status).toBe("succeeded");
    const got = seen.get(hook.path)!;
    expect(got).toHaveLength(1);
    expect(got[0]!.method).toBe("POST");
    expect(got[0]!.contentType).toBe("application/json");
    expect(got[0]!.idempotencyKey).toBe(`${run!.id}:slack:1`);
    const origin = (process.env.BETTER_AUTH_URL || `http://localhost:${process.env.PORT ?? "3000"}`).replace(
      /\/$/,
      "",
    );
    const body: unknown = JSON.parse(got[0]!.body);
    expect(body).toEqual({
      text:
        "*Paid* #7 &lt;!channel&gt; &amp; co for €65.00 <https://shop.test/orders|Open orders>\n" +
        `<${origin}/runs/${run!.id}|View the run in Tillflow>`,
    });
    expect(Object.keys(body as Record<string, unknown>)).toEqual(["text"]);
    const done = await steps(run!.id);
    expect(done.map((s) => [s.node_id, s.status])).toEqual([
      ["slack", "success"],
      ["tag", "success"],
    ]);
    expect(done[0]!.output).toMatchObject({ status: 200 });
    expect(await recorded(run!.id)).not.toContain(SECRET_PATH);
    expect(await runReply(run!.id)).not.toContain(SECRET_PATH);
  });

  test("a 500 is retried, and the message is delivered once", async () => {
    const hook = await webhook("flaky");
    script.set(hook.path, [
      { status: 500, body: "server_error" },
      { status: 200, body: "ok" },
    ]);
    const id = await slackFlow(hook.id, "Order {entity.number} paid");
    await pay("s-2");
    const [run] = await settledRuns(id, 1, 20_000);
    expect(run!.status).toBe("succeeded");
    const got = seen.get(hook.path)!;
    expect(got).toHaveLength(2);
    // The same message and key both times: one delivery, tried twice.
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(new Set(got.map((g) => g.idempotencyKey))).toEqual(new Set([`${run!.id}:slack:1`]));
    const done = await steps(run!.id);
    expect(done.map((s) => [s.node_id, s.leg, s.status])).toEqual([
      ["slack", 1, "failed"],
      ["slack", 2, "success"],
      ["tag", 2, "success"],
    ]);
    expect(done[0]!.error).toBe("Slack could not take the message just now (500 Internal Server Error).");
    const [delivered] = await getDb().execute<{ n: number; attempts: number }>(
      sql`select count(*)::int as n, max(attempts)::int as attempts from action_deliveries
          where run_id = ${run!.id} and node_id = 'slack' and status = 'delivered'`,
    );
    expect(delivered!.n).toBe(1);
    expect(await recorded(run!.id)).not.toContain(SECRET_PATH);
  });

  test("a 404 fails the step with what it means, is not retried, and names no URL", async () => {
    const hook = await webhook("gone");
    script.set(hook.path, [{ status: 404, body: "no_service" }]);
    const id = await slackFlow(hook.id, "Order {entity.number} paid");
    await pay("s-3");
    const [run] = await settledRuns(id, 1, 20_000);
    expect(run!.status).toBe("failed");
    expect(seen.get(hook.path)).toHaveLength(1);
    const done = await steps(run!.id);
    expect(done.map((s) => [s.node_id, s.status])).toEqual([["slack", "failed"]]);
    expect(done[0]!.error).toBe(
      "Slack refused the message (404): the webhook URL no longer exists — make a new incoming webhook and update the credential (Slack said 'no_service').",
    );
    const all = await recorded(run!.id);
    expect(all).not.toContain(SECRET_PATH);
    expect(all).not.toContain(`${base}/hook`);
    expect(await runReply(run!.id)).not.toContain(SECRET_PATH);
  });

  test("a webhook on a private address the guard does not allow is refused, for good, without naming its path", async () => {
    const hook = await webhook("private");
    const allowed = process.env.HTTP_ACTION_ALLOW;
    const id = await slackFlow(hook.id, "Order {entity.number} paid");
    // Published (the credential was stored while the receiver was allowed); now the guard refuses it.
    process.env.HTTP_ACTION_ALLOW = "";
    try {
      await pay("s-4");
      const [run] = await settledRuns(id, 1, 20_000);
      expect(run!.status).toBe("failed");
      const done = await steps(run!.id);
      expect(done.map((s) => [s.node_id, s.status])).toEqual([["slack", "failed"]]);
      expect(done[0]!.error).toMatch(
        /^Refused to call http:\/\/127\.0\.0\.1:\d+\/…: it is a loopback address/,
      );
      expect(await recorded(run!.id)).not.toContain(SECRET_PATH);
    } finally {
      process.env.HTTP_ACTION_ALLOW = allowed;
    }
    expect(seen.get(hook.path)).toBeUndefined();
  });

  test("a Slack webhook credential is any https URL, plain http only where the guard allows, and a non-URL is refused in words", async () => {
    const make = (value: string) =>
      call(createCredentialRoute, {
        method: "POST",
        key: shop.keys.admin,
        body: { name: `Slack ${value.slice(0, 40)}`, kind: "slack_webhook", value },
      });
    expect((await make("https://chat.example.com/hooks/abc")).status).toBe(201);
    const plain = await make("http://chat.example.com/hooks/abc");
    expect(plain.status).toBe(422);
    expect(JSON.stringify(plain.body)).toContain("The webhook URL must start with https://");
    const notUrl = await make("T0/B0/abc");
    expect(notUrl.status).toBe(422);
    expect(JSON.stringify(notUrl.body)).toContain(
      "Paste the incoming webhook URL Slack gave you (https://hooks.slack.com/…).",
    );
  });

  test("a dry run shows the message it would post, escaped, and posts nothing", async () => {
    const hook = await webhook("dry");
    const graph = flow(
      [
        { id: "t", type: "auto.trigger.webhook", params: { token: "tok_slack_dry_run_1234" } },
        {
          id: "slack",
          type: "auto.action.slack",
          params: { credentialId: hook.id, text: "*New* {event.payload.body.name} <https://x.test|open>" },
        },
      ],
      [["t", "slack"]],
    );
    const created = await call<{ id: string }>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Slack dry run", graph },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
      body: { payload: { body: { name: "Eve <!here> & co" } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const step = res.body.steps.find((s) => s.nodeId === "slack")!;
    expect(step).toMatchObject({
      outcome: "would_run",
      resolvedParams: { text: "*New* Eve &lt;!here&gt; &amp; co <https://x.test|open>" },
    });
    expect(step.detail).toEqual([
      "Would post to Slack: “*New* Eve &lt;!here&gt; &amp; co <https://x.test|open>”",
      "The message would end with a link back to the run.",
    ]);
    expect(JSON.stringify(res.body)).not.toContain(SECRET_PATH);
    expect(seen.get(hook.path)).toBeUndefined();
  });
});
