import http from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { getDb } from "@/lib/db/client";
import {
  actionDeliveries,
  automationRunSteps,
  automationRunWaits,
  entities,
  outboxEmails,
} from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

/** Each test has its own shop, so no test's automations run on another's orders. */
let shop: TestShop;
const hits: { key: string; body: string }[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  // Answers 503 to the first request, 200 after.
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      hits.push({ key: String(req.headers["idempotency-key"]), body });
      res.writeHead(hits.length === 1 ? 503 : 200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
  });
  url = `${await listenLocally(server)}/hook`;
});

beforeEach(async () => {
  shop = await createShop();
});

afterAll(async () => {
  killWorkers();
  await closeServer(server);
});
const worker = workerForFile();

async function order(id: string, fields: Record<string, unknown> = {}) {
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "paid", total: 150, currency: "EUR", email: "ann@example.com", ...fields },
    "test",
  );
}

async function stepsOf(runId: string) {
  return getDb()
    .select()
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(automationRunSteps.leg, automationRunSteps.position);
}

async function tagsOf(id: string) {
  const [row] = await getDb()
    .select({ tags: entities.tags })
    .from(entities)
    .where(and(eq(entities.tenantId, shop.tenant.id), eq(entities.id, id)));
  return row?.tags ?? [];
}

const SCORE = `// Score the order
actions.tag("scored");
actions.email(entity.email, "Thanks for order " + entity.number, "We got it.");
actions.later("3d", { step: "check-in", order: entity.number });
return { score: entity.total >= 100 ? "high" : "low" };`;

//  order_created ──▶ code(SCORE) ──▶ field(steps.code.score = high) ─true─▶ add_note(big)
//                                                                  └false─▶ add_note(small)
//  later(check-in) ──▶ create_task(Check in on {event.then.order})
const scoring = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "code", type: "auto.action.code", params: { source: SCORE } },
    {
      id: "if",
      type: "auto.condition.field",
      params: { path: "steps.code.score", operator: "eq", value: "high" },
    },
    { id: "big", type: "auto.action.add_note", params: { body: "Big order, score {steps.code.score}" } },
    { id: "small", type: "auto.action.add_note", params: { body: "Small order" } },
    { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
    { id: "task", type: "auto.action.create_task", params: { title: "Check in on {event.then.order}" } },
  ],
  [
    ["t", "code"],
    ["code", "if"],
    ["if", "big", "true"],
    ["if", "small", "false"],
    ["back", "task"],
  ],
);

test("a script tags, emails and asks for later, each once as its own step, and what it returns decides the condition after it", async () => {
  const automationId = await publishFlow(shop.keys.editor, "Score orders", scoring);
  await order("c-1");
  const [run] = await settledRuns(automationId);
  expect(run).toMatchObject({ status: "succeeded" });

  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.nodeType, s.status])).toEqual([
    ["code", "auto.action.code", "success"],
    ["code#1", "auto.action.add_tag", "success"],
    ["code#2", "auto.action.send_email", "success"],
    ["code#3", "auto.action.later", "success"],
    ["if", "auto.condition.field", "success"],
    ["big", "auto.action.add_note", "success"],
  ]);
  expect(steps[0]!.output).toMatchObject({
    result: { score: "high" },
    actions: [{ call: "tag" }, { call: "email" }, { call: "later" }],
  });
  expect(steps[4]!.output).toEqual({ result: true });

  expect(await tagsOf("c-1")).toEqual(["scored"]);
  const emails = await getDb().select().from(outboxEmails).where(eq(outboxEmails.runId, run!.id));
  expect(emails.map((e) => [e.to, e.subject])).toEqual([["ann@example.com", "Thanks for order #c-1"]]);
  const notes = await getDb().execute<{ body: string }>(
    sql`select body from entity_notes where tenant_id = ${shop.tenant.id} and entity_id = 'c-1'`,
  );
  expect(notes.map((n) => n.body)).toEqual(["Big order, score high"]);
  const [later] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, run!.id), eq(automationRunWaits.kind, "later")));
  expect(later).toMatchObject({ status: "pending" });
  expect(later!.event.payload).toMatchObject({ step: "check-in", then: { step: "check-in", order: "#c-1" } });

  // Each action carries the step's dedupe key plus its number.
  const keys = await getDb()
    .select({ nodeId: actionDeliveries.nodeId, key: actionDeliveries.dedupeKey })
    .from(actionDeliveries)
    .where(eq(actionDeliveries.runId, run!.id));
  expect(new Map(keys.map((k) => [k.nodeId, k.key])).get("code#2")).toBe(`${run!.id}:code:1#2`);
});

test("a script that never ends fails its step within its second, with the script's own words, and the branch after it stops", async () => {
  const automationId = await publishFlow(
    shop.keys.editor,
    "Loops",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        {
          id: "code",
          type: "auto.action.code",
          params: { source: "// Loop\nactions.tag('never');\nwhile (true) {}" },
        },
        { id: "after", type: "auto.action.add_tag", params: { tag: "after" } },
      ],
      [
        ["t", "code"],
        ["code", "after"],
      ],
    ),
  );
  await order("c-2");
  const [run] = await settledRuns(automationId);
  expect(run).toMatchObject({ status: "failed" });
  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.status, s.error])).toEqual([
    ["code", "failed", "The script ran for more than 1 second and was stopped."],
  ]);
  // Collapse guard, 10× the 1 s limit: a second of CPU can take a few of wall time on a busy machine.
  expect((steps[0]!.output as { ms: number }).ms).toBeLessThan(10_000);
  // Actions asked for before the failure are not taken.
  expect(await tagsOf("c-2")).toEqual([]);
});

test("an outside action a script asked for is retried alone, with the same key, and the run succeeds", async () => {
  const automationId = await publishFlow(
    shop.keys.editor,
    "Notify",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        {
          id: "code",
          type: "auto.action.code",
          params: {
            source: `actions.http(${JSON.stringify(url)}, { body: { order: entity.number }, retry: { attempts: 2, backoff: "fixed", initialSeconds: 1 } });\nactions.tag("notified");`,
          },
        },
      ],
      [["t", "code"]],
    ),
  );
  await order("c-3");
  const [run] = await settledRuns(automationId);
  expect(run).toMatchObject({ status: "succeeded" });
  expect(hits.map((h) => h.key)).toEqual([`${run!.id}:code:1#1`, `${run!.id}:code:1#1`]);
  expect(JSON.parse(hits[1]!.body)).toEqual({ order: "#c-3" });
  expect(await tagsOf("c-3")).toEqual(["notified"]);
  const steps = await stepsOf(run!.id);
  expect(steps.filter((s) => s.nodeId === "code").length).toBe(1);
});

test("a dry run runs the script and lists the actions it would take, taking none", async () => {
  await order("c-4", { total: 20 });
  const automationId = await publishFlow(shop.keys.editor, "Score orders (dry)", scoring);
  const tagsBefore = await tagsOf("c-4");
  const reply = await call<DryRunResult>(dryRunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: automationId },
    body: { entityId: "c-4" },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const steps = reply.body.steps.map((s) => [s.nodeId, s.outcome, s.detail[0]]);
  expect(steps).toEqual([
    ["t", "started", expect.any(String)],
    ["code", "would_run", 'The script ran in the sandbox and returned {"score":"low"}.'],
    ["code#1", "would_run", expect.stringMatching(/^Would add tag 'scored' to order/)],
    ["code#2", "would_run", "Would email ann@example.com: subject 'Thanks for order #c-4'"],
    [
      "code#3",
      "would_run",
      expect.stringMatching(/^Would run this automation again from step 'check-in' at /),
    ],
    ["if", "false", "Score from step 'code' is 'low', not 'high', so it follows 'False'."],
    ["small", "would_run", expect.stringMatching(/^Would add a note/)],
  ]);
  expect(await tagsOf("c-4")).toEqual(tagsBefore);
  const [{ n }] = (await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from automation_runs where automation_id = ${automationId}`,
  )) as unknown as [{ n: number }];
  // The order was created before this automation: no run, and the dry run started none.
  expect(n).toBe(0);
});

test("a viewer may not dry-run a flow with a code step: its script would run on our servers", async () => {
  const automationId = await publishFlow(shop.keys.editor, "Score orders (viewer)", scoring);
  const refused = await call<{ error: { code: string; message: string } }>(dryRunRoute, {
    method: "POST",
    key: shop.keys.viewer,
    params: { id: automationId },
    body: {},
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error.message).toBe(
    "A dry run of a flow with a code step runs its script, so it needs the editor role. Ask an admin for the editor role.",
  );
  // A graph sent with the request is checked the same way.
  const sent = await call<{ error: { code: string } }>(dryRunRoute, {
    method: "POST",
    key: shop.keys.viewer,
    params: { id: automationId },
    body: { graph: scoring },
  });
  expect(sent.status).toBe(403);
});

test("a worker killed while a script runs: the step runs again after the restart, and its actions are taken once", async () => {
  await worker.stop();
  const automationId = await publishFlow(
    shop.keys.editor,
    "Slow script",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "code",
          type: "auto.action.code",
          // About half a second of work, then two actions.
          params: {
            source:
              "let n = 0;\nfor (let i = 0; i < 2e6; i++) n += i % 7;\nactions.tag('slow');\nactions.note('counted ' + n);\nreturn { n };",
          },
        },
      ],
      [["t", "code"]],
    ),
  );
  await order("c-5", { status: "pending" });
  const first = spawnWorker();
  await order("c-5", { status: "paid" });
  // Kill the worker while the script is running: its delivery is recorded as `sending`.
  await expect
    .poll(
      async () =>
        (
          await getDb()
            .execute(sql`select 1 from action_deliveries where node_id = 'code' and status = 'sending'
             and run_id in (select id from automation_runs where automation_id = ${automationId})`)
        ).length,
      { timeout: 30_000, interval: 10 },
    )
    .toBe(1);
  first.kill("SIGKILL");
  spawnWorker();
  await new Promise((r) => setTimeout(r, 5_500));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);
  const [run] = await settledRuns(automationId, 1, 60_000);
  expect(run).toMatchObject({ status: "succeeded" });
  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([
    ["code", "success"],
    ["code#1", "success"],
    ["code#2", "success"],
  ]);
  expect(steps[0]!.reason).toBe("Ran again after an interruption; the actions it asked for are taken once.");
  expect(await tagsOf("c-5")).toEqual(["slow"]);
  const notes = await getDb().execute<{ body: string }>(
    sql`select body from entity_notes where tenant_id = ${shop.tenant.id} and entity_id = 'c-5'`,
  );
  expect(notes.length).toBe(1);
}, 120_000);
