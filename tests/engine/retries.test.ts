import http from "node:http";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunSteps, automationRunWaits, type RunStatus } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { runInStatus } from "@/tests/helpers/poll";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

let shop: TestShop;
let server: http.Server;
let base: string;
/** What the receiver saw, per path: the Idempotency-Key of each request. */
const seen = new Map<string, string[]>();
/** Per path, the statuses to answer in turn (the last one repeats). */
const script = new Map<string, { status: number; headers?: Record<string, string> }[]>();

beforeAll(async () => {
  shop = await createShop();
  server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    const keys = seen.get(path) ?? [];
    keys.push(String(req.headers["idempotency-key"]));
    seen.set(path, keys);
    const answers = script.get(path) ?? [{ status: 200 }];
    const answer = answers[Math.min(keys.length - 1, answers.length - 1)]!;
    res.writeHead(answer.status, answer.headers ?? {});
    res.end("{}");
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  await closeServer(server);
});
const worker = workerForFile();

//  order_paid ──▶ call (http_request, retry 3 × 1 s fixed) ──▶ tag(called)
async function callFlow(
  path: string,
  retry: Record<string, unknown> = { attempts: 3, backoff: "fixed", initialSeconds: 1 },
) {
  return publishFlow(
    shop.keys.editor,
    `Call ${path}`,
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        { id: "call", type: "auto.action.http_request", params: { url: `${base}${path}`, retry } },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "called" } },
      ],
      [
        ["t", "call"],
        ["call", "tag"],
      ],
    ),
  );
}

async function pay(id: string) {
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "pending", total: 5, currency: "EUR" },
    "test",
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    id,
    { number: `#${id}`, status: "paid", total: 5, currency: "EUR" },
    "test",
  );
}

async function runOf(automationId: string) {
  await expect
    .poll(
      async () =>
        (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId)))
          .length,
    )
    .toBe(1);
  return (
    await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
  )[0]!;
}

const until = (runId: string, statuses: RunStatus[], timeoutMs = 20_000) =>
  runInStatus(runId, statuses, { timeoutMs, intervalMs: 100 });

const attemptsOf = (runId: string) =>
  getDb()
    .select({
      nodeId: automationRunSteps.nodeId,
      leg: automationRunSteps.leg,
      status: automationRunSteps.status,
      reason: automationRunSteps.reason,
    })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(automationRunSteps.leg, automationRunSteps.position);

describe("retries", () => {
  test("503, 503, 200: the run succeeds on attempt 3, the receiver sees one Idempotency-Key three times, and what follows runs once", async () => {
    script.set("/flaky", [{ status: 503 }, { status: 503 }, { status: 200 }]);
    const id = await callFlow("/flaky");
    await pay("f-1");
    const run = await runOf(id);
    const ended = await until(run.id, ["succeeded", "partial", "failed"]);
    expect(ended.status).toBe("succeeded");
    const keys = seen.get("/flaky")!;
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(`${run.id}:call:1`);
    const steps = await attemptsOf(run.id);
    expect(steps.map((s) => [s.nodeId, s.leg, s.status])).toEqual([
      ["call", 1, "failed"],
      ["call", 2, "failed"],
      ["call", 3, "success"],
      ["tag", 3, "success"],
    ]);
    expect(steps[0]!.reason).toMatch(/^Retry 2 of 3 at \d\d:\d\d UTC\.$/);
    expect(steps[1]!.reason).toMatch(/^Retry 3 of 3 at /);
  });

  test("a 400 is not retried: the step fails at once, and (as for any failed action) its branch ends there", async () => {
    script.set("/bad", [{ status: 400 }]);
    const id = await callFlow("/bad");
    await pay("b-1");
    const run = await runOf(id);
    expect((await until(run.id, ["succeeded", "partial", "failed"])).status).toBe("failed");
    expect(seen.get("/bad")).toHaveLength(1);
    expect((await attemptsOf(run.id)).map((s) => [s.nodeId, s.status])).toEqual([["call", "failed"]]);
    expect(
      await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run.id)),
    ).toEqual([]);
  });

  test("retry { attempts: 1 } alone is accepted (the rest take SPEC's defaults) and turns retries off: a 503 fails at once", async () => {
    script.set("/once", [{ status: 503 }]);
    const id = await callFlow("/once", { attempts: 1 });
    await pay("o-1");
    const run = await runOf(id);
    expect((await until(run.id, ["succeeded", "partial", "failed"])).status).toBe("failed");
    expect(seen.get("/once")).toHaveLength(1);
    expect(
      await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run.id)),
    ).toEqual([]);
  });

  test("a Retry-After of 2 s is honoured; after the last attempt the step fails and its branch ends", async () => {
    script.set("/busy", [{ status: 429, headers: { "retry-after": "2" } }]);
    const id = await callFlow("/busy", { attempts: 2, backoff: "exponential", initialSeconds: 1 });
    await pay("r-1");
    const run = await runOf(id);
    await until(run.id, ["waiting"]);
    const [retry] = await getDb()
      .select()
      .from(automationRunWaits)
      .where(and(eq(automationRunWaits.runId, run.id), eq(automationRunWaits.kind, "retry")));
    const delay = retry!.resumeAt.getTime() - retry!.createdAt.getTime();
    expect(delay).toBeGreaterThan(1_500);
    expect(delay).toBeLessThan(2_500);
    expect((await until(run.id, ["succeeded", "partial", "failed"])).status).toBe("failed");
    expect(seen.get("/busy")).toHaveLength(2);
    expect((await attemptsOf(run.id)).map((s) => [s.nodeId, s.leg, s.status])).toEqual([
      ["call", 1, "failed"],
      ["call", 2, "failed"],
    ]);
  });

  test("the worker stopped during a backoff: the retry still happens, once", async () => {
    script.set("/later", [{ status: 502 }, { status: 200 }]);
    const id = await callFlow("/later", { attempts: 3, backoff: "fixed", initialSeconds: 3 });
    await pay("k-1");
    const run = await runOf(id);
    await until(run.id, ["waiting"]);
    await worker.stop();
    await new Promise((r) => setTimeout(r, 3_500));
    expect(seen.get("/later")).toHaveLength(1);
    await worker.start();
    expect((await until(run.id, ["succeeded", "partial", "failed"])).status).toBe("succeeded");
    expect(seen.get("/later")).toHaveLength(2);
  });
});
