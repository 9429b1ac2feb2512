import http from "node:http";
import { spawn, type ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { actionDeliveries, automationRuns, automationRunSteps, entities, entityNotes } from "@/lib/db/schema";
import { recordEvents } from "@/lib/automations/engine/start/events";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { killWorkers, spawnWorker } from "@/tests/helpers/worker-process";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { runInStatus, until } from "@/tests/helpers/poll";
import { entrypointArgs } from "@/tests/helpers/entrypoints";

/**
 * Fencing (lib/automations/engine/fence.ts), with real worker processes. Worker A takes a run's
 * first leg and is frozen (SIGSTOP) in the middle of its HTTP call: to its peers it is a worker cut
 * off by a partition, silent past TILLFLOW_WORKER_DEAD_AFTER_MS. Worker B sweeps it, takes the job
 * over, re-sends the call with the same Idempotency-Key and finishes the run. Then A's call is
 * answered and A thaws, still believing it owns the leg: its commit must be refused, and nothing
 * it did may show.
 *
 *   order_created ──▶ add_tag(fenced) ──▶ http POST receiver ──▶ add_note("Called")
 */

const held: http.ServerResponse[] = [];
const requests = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const key = String(req.headers["idempotency-key"] ?? "");
  requests.set(key, (requests.get(key) ?? 0) + 1);
  req.resume();
  // The first request of a key gets no answer until the test gives one (A's, frozen mid-call).
  if (requests.get(key) === 1) held.push(res);
  else res.writeHead(200, { "content-type": "application/json" }).end('{"by":"second"}');
});
let workerA: ChildProcess | null = null;

afterAll(async () => {
  if (workerA?.signalCode === null) workerA.kill("SIGCONT");
  for (const res of held) res.destroy();
  killWorkers();
  workerA?.kill("SIGKILL");
  await closeServer(receiver);
});

test("a worker cut off mid-leg cannot commit after a peer took the leg over: its write is refused, nothing doubles", async () => {
  const url = await listenLocally(receiver);
  const shop = await createShop();
  await publishFlow(
    shop.keys.admin,
    "Fenced",
    flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "fenced" } },
        {
          id: "call",
          type: "auto.action.http_request",
          params: { url: `${url}/hook`, method: "POST", body: '{"run":"{run.id}"}' },
        },
        { id: "note", type: "auto.action.add_note", params: { body: "Called" } },
      ],
      [
        ["t", "tag"],
        ["tag", "call"],
        ["call", "note"],
      ],
    ),
  );
  const tenantId = shop.tenant.id;
  await getDb()
    .insert(entities)
    .values({
      tenantId,
      domain: "order",
      id: "o-1",
      data: { number: "#1", total: 10 },
      updatedAt: new Date(),
    });

  const settings = { TILLFLOW_WORKER_DEAD_AFTER_MS: "3000", TILLFLOW_SCHEDULES: "off", LOG_FORMAT: "json" };
  let logA = "";
  workerA = spawn(process.execPath, entrypointArgs("worker"), {
    env: { ...process.env, HTTP_ACTION_ALLOW: "127.0.0.1,localhost", ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  workerA.stdout!.on("data", (chunk: Buffer) => (logA += chunk.toString()));
  workerA.stderr!.on("data", (chunk: Buffer) => (logA += chunk.toString()));

  await getDb().transaction((tx) =>
    recordEvents(tx, tenantId, [{ type: "order.created", domain: "order", entityId: "o-1" }]),
  );
  // A is in its HTTP call: the delivery is `sending`, the receiver holds the request.
  await until(
    () => held.length,
    (n) => n === 1,
    { timeoutMs: 30_000, what: "worker A to call the receiver" },
  );
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.tenantId, tenantId));
  workerA.kill("SIGSTOP");

  // B comes up, finds A silent for 3 s, frees its job and replays the leg to the end.
  spawnWorker(settings);
  const done = await runInStatus(run!.id, ["succeeded", "partial", "failed"], { timeoutMs: 40_000 });
  expect(done.status).toBe("succeeded");
  const key = `${run!.id}:call:1`;
  expect(requests.get(key)).toBe(2);
  const step = async () =>
    (
      await getDb()
        .select({ status: automationRunSteps.status, output: automationRunSteps.output })
        .from(automationRunSteps)
        .where(and(eq(automationRunSteps.runId, run!.id), eq(automationRunSteps.nodeId, "call")))
    )[0];
  const byB = await step();
  expect(byB).toMatchObject({ status: "success", output: { resentAfterInterruption: true } });

  // A's call is answered and A thaws: it goes on to record its outcome, which the fence refuses.
  held[0]!.writeHead(200, { "content-type": "application/json" }).end('{"by":"first"}');
  workerA.kill("SIGCONT");
  await until(
    () => logA,
    (text) => text.includes(`Another worker took over run ${run!.id}`),
    { timeoutMs: 20_000, what: "worker A to say its leg was taken over" },
  );

  // Nothing of A's shows: B's outcome stands, every effect is there once, the run is as B left it.
  expect(await step()).toEqual(byB);
  const [delivery] = await getDb()
    .select({ status: actionDeliveries.status, response: actionDeliveries.response })
    .from(actionDeliveries)
    .where(and(eq(actionDeliveries.runId, run!.id), eq(actionDeliveries.nodeId, "call")));
  expect(delivery).toMatchObject({ status: "delivered", response: { resentAfterInterruption: true } });
  const notes = await getDb().select().from(entityNotes).where(eq(entityNotes.tenantId, tenantId));
  expect(notes.map((n) => n.body)).toEqual(["Called"]);
  const [order] = await getDb()
    .select({ tags: entities.tags })
    .from(entities)
    .where(and(eq(entities.tenantId, tenantId), eq(entities.id, "o-1")));
  expect(order!.tags).toEqual(["fenced"]);
  const [after] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(after).toMatchObject({ status: "succeeded", legs: 1, finishedAt: done.finishedAt });
  // One step per node, each written once (steps are unique per run, node and leg).
  const steps = await getDb()
    .select({ nodeId: automationRunSteps.nodeId })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, run!.id))
    .orderBy(automationRunSteps.nodeId);
  expect(steps.map((s) => s.nodeId)).toEqual(["call", "note", "tag"]);
}, 90_000);
