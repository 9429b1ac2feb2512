import http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getRun } from "@/lib/automations/runs/detail";
import { listRuns } from "@/lib/automations/runs/history";
import { getDb } from "@/lib/db/client";
import { automationRuns, type RunStatus } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { until } from "@/tests/helpers/poll";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

/**
 * What the run list and the run detail say about a run waiting on a retry: the earliest pending
 * wait's kind, and the attempt numbers from the failed attempt's `output.retry`, for the line
 * "Retrying — attempt 2 of 3 at 14:05".
 */

let shop: TestShop;
let other: TestShop;
let server: http.Server;
let base: string;
let calls = 0;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  // 503 first, then 200: one retry.
  server = http.createServer((_req, res) => {
    calls += 1;
    res.writeHead(calls === 1 ? 503 : 200);
    res.end("{}");
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  await closeServer(server);
});
workerForFile();

async function untilRun(automationId: string, statuses: RunStatus[]) {
  const run = await until(
    async () =>
      (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId)))[0],
    (run) => run !== undefined && statuses.includes(run.status),
    { timeoutMs: 20_000, intervalMs: 100, what: `a run of ${automationId} to be ${statuses.join(" or ")}` },
  );
  return run!;
}

describe("a run waiting on a retry", () => {
  //  order_paid ──▶ call (http_request, 3 attempts, 3 s apart) ──▶ tag(called)
  test("lists and details its next attempt, then nothing once it has succeeded", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Call with retries",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "call",
            type: "auto.action.http_request",
            params: { url: `${base}/hook`, retry: { attempts: 3, backoff: "fixed", initialSeconds: 3 } },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "called" } },
        ],
        [
          ["t", "call"],
          ["call", "tag"],
        ],
      ),
    );
    const order = { number: "#s-1", status: "pending", total: 5, currency: "EUR" };
    await upsertEntity(shop.tenant.id, "order", "s-1", order, "test");
    await upsertEntity(shop.tenant.id, "order", "s-1", { ...order, status: "paid" }, "test");
    const run = await untilRun(id, ["waiting"]);

    const retrying = { kind: "retry", retry: { attempt: 2, of: 3 } };
    const listed = await listRuns(shop.tenant.id, { automationId: id });
    expect(listed.items.map((r) => [r.status, r.nextWait])).toEqual([["waiting", retrying]]);
    expect(listed.items[0]!.resumeAt).toBe(run.resumeAt!.toISOString());
    const detail = await getRun(shop.tenant.id, run.id);
    expect(detail.nextWait).toEqual(retrying);
    expect(detail.steps.map((s) => [s.nodeId, s.status, s.reason])).toEqual([
      ["call", "failed", expect.stringMatching(/^Retry 2 of 3 at \d\d:\d\d UTC\.$/)],
    ]);
    // Another shop sees none of it.
    expect((await listRuns(other.tenant.id, { automationId: id })).items).toEqual([]);

    const done = await untilRun(id, ["succeeded", "partial", "failed"]);
    expect(done.status).toBe("succeeded");
    expect((await listRuns(shop.tenant.id, { automationId: id })).items[0]!.nextWait).toBeNull();
    expect((await getRun(shop.tenant.id, run.id)).nextWait).toBeNull();
  });

  test("a run waiting on a plain Wait says so, with no attempts", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Wait a day",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "days" } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "later" } },
        ],
        [
          ["t", "w"],
          ["w", "tag"],
        ],
      ),
    );
    const order = { number: "#s-2", status: "pending", total: 5, currency: "EUR" };
    await upsertEntity(shop.tenant.id, "order", "s-2", order, "test");
    await upsertEntity(shop.tenant.id, "order", "s-2", { ...order, status: "paid" }, "test");
    const run = await untilRun(id, ["waiting"]);
    const delay = { kind: "delay", retry: null };
    expect((await listRuns(shop.tenant.id, { automationId: id })).items[0]!.nextWait).toEqual(delay);
    expect((await getRun(shop.tenant.id, run.id)).nextWait).toEqual(delay);
  });
});
