import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { tryAi } from "@/lib/automations/dry-run/ai-try";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, automationRunSteps, entities } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { startStubModel, textOf, type StubModel, type StubReply } from "@/tests/helpers/ai-stub";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * The AI step with the real worker, against a stub OpenAI-compatible server on 127.0.0.1
 * (tests/helpers/ai-stub.ts) that counts every question it is asked:
 *
 *   order_created ──▶ ai(classify: damaged | other) ──▶ field(steps.sort.category = damaged)
 *                                                        ├─true──▶ add_tag(damaged-{steps.sort.category})
 *                                                        └─false─▶ add_tag(other)
 */

let shop: TestShop;
let model: StubModel;
/** What the stub answers for the n-th question of the test (the last one repeats). */
let replies: StubReply[] = [];

beforeAll(async () => {
  model = await startStubModel((_request, index) => replies[Math.min(index, replies.length - 1)]!);
  process.env.AI_BASE_URL = model.baseURL;
  process.env.AI_MODEL = "stub";
  process.env.AI_API_KEY = "test-key";
});

beforeEach(async () => {
  shop = await createShop();
  model.requests.length = 0;
});

afterEach(() => {
  delete process.env.AI_CALLS_PER_HOUR;
  delete process.env.AI_CALLS_PER_SHOP_PER_HOUR;
});

afterAll(async () => {
  killWorkers();
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_API_KEY;
  await model.close();
});
const worker = workerForFile();

const answer = (value: unknown) => JSON.stringify(value);

function sorting(params: Record<string, unknown> = {}) {
  return flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      {
        id: "sort",
        type: "auto.action.ai",
        params: {
          task: "classify",
          prompt: "Order {entity.number} for {entity.total} arrived like this: {entity.email}",
          categories: ["damaged", "other"],
          ...params,
        },
      },
      {
        id: "if",
        type: "auto.condition.field",
        params: { path: "steps.sort.category", operator: "eq", value: "damaged" },
      },
      { id: "yes", type: "auto.action.add_tag", params: { tag: "damaged-{steps.sort.category}" } },
      { id: "no", type: "auto.action.add_tag", params: { tag: "other" } },
    ],
    [
      ["t", "sort"],
      ["sort", "if"],
      ["if", "yes", "true"],
      ["if", "no", "false"],
    ],
  );
}

async function order(id: string) {
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "pending", total: 80, currency: "EUR", email: "box@example.com" },
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

test("the model sorts the order, its category drives the condition and a token after it, asked once with the rendered prompt", async () => {
  replies = [answer({ category: "Damaged" })];
  const automationId = await publishFlow(shop.keys.editor, "Sort orders", sorting());
  await order("a-1");
  const [run] = await settledRuns(automationId, 1, 30_000);
  expect(run).toMatchObject({ status: "succeeded" });
  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([
    ["sort", "success"],
    ["if", "success"],
    ["yes", "success"],
  ]);
  // Handed on as the step spells it, whatever case the model used.
  expect(steps[0]!.output).toEqual({ category: "damaged" });
  expect(steps[0]!.input).toMatchObject({ prompt: "Order #a-1 for 80 arrived like this: box@example.com" });
  expect(await tagsOf("a-1")).toEqual(["damaged-damaged"]);

  expect(model.requests).toHaveLength(1);
  const [request] = model.requests;
  expect(request!.model).toBe("stub");
  expect(textOf(request!.messages.at(-1)!)).toBe("Order #a-1 for 80 arrived like this: box@example.com");
  expect(JSON.stringify(request!.response_format)).toContain('"enum":["damaged","other"]');
  // The key goes to the model, and nowhere into what the run recorded.
  const [delivery] = await getDb().select().from(actionDeliveries).where(eq(actionDeliveries.runId, run!.id));
  expect(JSON.stringify([delivery, steps])).not.toContain("test-key");
}, 60_000);

test("a dry run shows the prompt it would send, tokens filled in, and asks nothing", async () => {
  replies = [answer({ category: "other" })];
  const automationId = await publishFlow(shop.keys.editor, "Sort orders", sorting());
  await order("a-7");
  await settledRuns(automationId, 1, 30_000);
  model.requests.length = 0;
  const reply = await call<DryRunResult>(dryRunRoute, {
    method: "POST",
    key: shop.keys.editor,
    params: { id: automationId },
    body: { entityId: "a-7" },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  // It walks on as a run would, with no answer: the condition on the category finds none.
  expect(reply.body.steps.slice(0, 2).map((s) => [s.nodeId, s.outcome])).toEqual([
    ["t", "started"],
    ["sort", "would_run"],
  ]);
  expect(reply.body.steps[1]!.detail).toEqual([
    "Would ask the model: Order #a-7 for 80 arrived like this: box@example.com",
    "The answer must be one of: damaged, other.",
    "The dry run asks nothing, so the steps after it see no answer.",
  ]);
  expect(model.requests).toHaveLength(0);
});

test("Try with the model asks once with the prompt filled in from a record, counted against the shop's AI budget", async () => {
  replies = [answer({ category: "other" }), answer({ category: "lost" })];
  // The builder's budget (AI_CALLS_PER_SHOP_PER_HOUR), not the runs' allowance (AI_CALLS_PER_HOUR).
  process.env.AI_CALLS_PER_SHOP_PER_HOUR = "2";
  const params = sorting().nodes.find((n) => n.id === "sort")!.params;
  await order("a-8");
  model.requests.length = 0;
  const tried = await tryAi(shop.tenant.id, {
    params,
    domain: "order",
    entityId: "a-8",
    triggerType: "auto.trigger.order_created",
  });
  expect(tried).toMatchObject({
    prompt: "Order #a-8 for 80 arrived like this: box@example.com",
    result: { ok: true, answer: { category: "other" } },
  });
  expect(tried.record?.id).toBe("a-8");
  // The step's own checks: an answer outside the categories is the sentence a run would fail with.
  const wrong = await tryAi(shop.tenant.id, { params });
  expect(wrong.result).toEqual({
    ok: false,
    error: "The AI model answered 'lost', which is not one of this step's categories (damaged, other).",
  });
  await expect(tryAi(shop.tenant.id, { params })).rejects.toThrow(
    /^This shop has used all 2 of its AI questions for this hour, so the model was not asked/,
  );
  expect(model.requests).toHaveLength(2);
});

test("without a model set up, the AI step is a ready issue that keeps the flow from being published", async () => {
  delete process.env.AI_BASE_URL;
  try {
    const created = await call<{ id: string; readyIssues: { nodeId?: string; message: string }[] }>(
      createRoute,
      { method: "POST", key: shop.keys.editor, body: { name: "Sort orders", graph: sorting() } },
    );
    expect(created.status).toBe(201);
    expect(created.body.readyIssues).toEqual([
      {
        nodeId: "sort",
        message:
          "AI is not set up for this shop: ask your administrator to set AI_BASE_URL and AI_MODEL (and AI_API_KEY if the model needs one) on the server.",
      },
    ]);
    const published = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
    });
    expect(published.status).toBe(422);
    expect(published.body.error.message).toMatch(/^Fix 1 issue before publishing: AI is not set up/);
    // Its dry run says a run would fail at the AI step, and still shows what comes after it.
    await order("a-9");
    const dry = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
      body: { entityId: "a-9" },
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.steps.map((s) => [s.nodeId, s.outcome])).toEqual([
      ["t", "started"],
      ["sort", "would_run"],
      ["if", "false"],
      ["no", "would_run"],
    ]);
    expect(dry.body.steps[1]!.detail[0]).toBe(
      "AI is not set up for this shop: ask your administrator to set AI_BASE_URL and AI_MODEL (and AI_API_KEY if the model needs one) on the server. Until then a run fails at this step.",
    );
  } finally {
    process.env.AI_BASE_URL = model.baseURL;
  }
});

test("an answer outside the categories fails the step, saying what came back", async () => {
  replies = [answer({ category: "broken" })];
  const automationId = await publishFlow(shop.keys.editor, "Sort orders", sorting());
  await order("a-2");
  const [run] = await settledRuns(automationId, 1, 30_000);
  expect(run).toMatchObject({ status: "failed" });
  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([["sort", "failed"]]);
  expect(steps[0]!.error).toBe(
    "The AI model answered 'broken', which is not one of this step's categories (damaged, other).",
  );
  expect(await tagsOf("a-2")).toEqual([]);
  expect(model.requests).toHaveLength(1);
}, 60_000);

test("a 503 from the model is tried again like an HTTP action, and the answer after it is used", async () => {
  replies = [{ status: 503, body: '{"error":{"message":"busy"}}' }, answer({ category: "other" })];
  const automationId = await publishFlow(
    shop.keys.editor,
    "Sort orders",
    sorting({ retry: { attempts: 2, backoff: "fixed", initialSeconds: 1 } }),
  );
  await order("a-3");
  const [run] = await settledRuns(automationId, 1, 30_000);
  expect(run).toMatchObject({ status: "succeeded" });
  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([
    ["sort", "failed"],
    ["sort", "success"],
    ["if", "success"],
    ["no", "success"],
  ]);
  expect(steps[0]!.error).toBe("The AI model provider answered with an error (HTTP 503); try again.");
  expect(steps[0]!.reason).toMatch(/^Retry 2 of 2 at /);
  expect(await tagsOf("a-3")).toEqual(["other"]);
  expect(model.requests).toHaveLength(2);
}, 60_000);

test("past the shop's hourly allowance the step fails with a sentence and the model is not asked", async () => {
  replies = [answer({ category: "other" })];
  process.env.AI_CALLS_PER_HOUR = "1";
  const automationId = await publishFlow(shop.keys.editor, "Sort orders", sorting());
  await order("a-4");
  await order("a-5");
  const runs = await settledRuns(automationId, 2, 30_000);
  expect(runs.map((r) => r.status).sort()).toEqual(["failed", "succeeded"]);
  const failed = runs.find((r) => r.status === "failed")!;
  const [step] = await stepsOf(failed.id);
  expect(step!.error).toMatch(
    /^This shop has used all 1 of its AI questions for this hour, so the model was not asked; the count starts again in \d+ minutes?\.$/,
  );
  // Not retried: the allowance is not something a minute's wait fixes.
  expect(step!.reason).toBeNull();
  expect(model.requests).toHaveLength(1);
}, 60_000);

test("a worker killed after the model answered and before the step was recorded: the replay uses the answer and never asks again", async () => {
  await worker.stop();
  replies = [{ delayMs: 1_000, then: answer({ category: "damaged" }) }];
  const automationId = await publishFlow(shop.keys.editor, "Sort orders", sorting());
  const env = { AI_BASE_URL: model.baseURL, AI_MODEL: "stub", AI_API_KEY: "test-key" };
  const first = spawnWorker(env);
  await order("a-6");
  // The question is on its way; hold the run's row so the step's outcome (whose row points at the
  // run) cannot commit, while the answer itself can be written to the step's delivery.
  await expect.poll(() => model.requests.length, { timeout: 30_000, interval: 10 }).toBe(1);
  const [run] = await getDb().execute<{ id: string }>(
    sql`select id from automation_runs where automation_id = ${automationId}`,
  );
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = getDb()
    .transaction(async (tx) => {
      await tx.execute(sql`select id from automation_runs where id = ${run!.id} for update`);
      locked();
      await released;
      throw new Error("rolled back");
    })
    .catch(() => undefined);
  await isLocked;
  await expect
    .poll(
      async () =>
        (
          await getDb().execute(
            sql`select 1 from action_deliveries where run_id = ${run!.id} and node_id = 'sort'
                  and status = 'sending' and response -> 'answer' is not null`,
          )
        ).length,
      { timeout: 30_000, interval: 10 },
    )
    .toBe(1);
  // Give the worker time to reach the step's outcome, which waits on the held row.
  await new Promise((r) => setTimeout(r, 300));
  first.kill("SIGKILL");
  release();
  await holding;

  spawnWorker(env);
  await new Promise((r) => setTimeout(r, 5_500));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);
  const [settled] = await settledRuns(automationId, 1, 60_000);
  expect(settled).toMatchObject({ status: "succeeded" });
  const steps = await stepsOf(run!.id);
  expect(steps.map((s) => [s.nodeId, s.status])).toEqual([
    ["sort", "success"],
    ["if", "success"],
    ["yes", "success"],
  ]);
  expect(steps[0]!.output).toMatchObject({ category: "damaged", answerRecordedBefore: true });
  expect(steps[0]!.reason).toBe(
    "Taken up again after an interruption; an answer the model had already given is used, not asked for again.",
  );
  expect(await tagsOf("a-6")).toEqual(["damaged-damaged"]);
  expect(model.requests).toHaveLength(1);
}, 120_000);
