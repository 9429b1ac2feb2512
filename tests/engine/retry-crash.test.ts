import http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { enqueueJobs } from "@/lib/jobs";
import { spawnWorker, killWorkers } from "@/tests/helpers/worker-process";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

const keys: string[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  // The first attempt is refused with a 502; every later one succeeds.
  server = http.createServer((req, res) => {
    keys.push(String(req.headers["idempotency-key"]));
    res.writeHead(keys.length === 1 ? 502 : 200);
    res.end("{}");
  });
  url = `${await listenLocally(server)}/hook`;
});

afterAll(async () => {
  killWorkers();
  await closeServer(server);
});

//  order_paid ──▶ call (http_request, 502 then 200; retry after 4 s)
test("a worker SIGKILLed during a backoff loses nothing: the retry happens once, with the same key", async () => {
  const shop = await createShop();
  const id = await publishFlow(
    shop.keys.editor,
    "Backoff",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "call",
          type: "auto.action.http_request",
          params: { url, retry: { attempts: 3, backoff: "fixed", initialSeconds: 4 } },
        },
      ],
      [["t", "call"]],
    ),
  );
  const first = spawnWorker();
  await upsertEntity(
    shop.tenant.id,
    "order",
    "k-1",
    { number: "#1", status: "pending", total: 1, currency: "EUR" },
    "test",
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "k-1",
    { number: "#1", status: "paid", total: 1, currency: "EUR" },
    "test",
  );
  const runOf = async () =>
    (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id)))[0];
  await expect.poll(async () => (await runOf())?.status, { timeout: 30_000, interval: 50 }).toBe("waiting");
  const run = (await runOf())!;
  const [retry] = await getDb().select().from(automationRunWaits).where(eq(automationRunWaits.runId, run.id));
  expect(retry).toMatchObject({ kind: "retry", status: "pending", attempt: 2 });
  // Killed inside the last two seconds of the backoff, when its wake timer already holds the job.
  await new Promise((r) => setTimeout(r, Math.max(0, retry!.resumeAt.getTime() - Date.now() - 1_000)));
  first.kill("SIGKILL");
  expect(keys).toHaveLength(1);

  spawnWorker();
  // Release the dead worker's jobs now rather than at the next minute's sweep.
  await new Promise((r) => setTimeout(r, 4_000));
  await enqueueJobs(getDb(), [{ task: "worker_sweep", payload: {} }]);
  await expect
    .poll(async () => (await runOf())?.status, { timeout: 60_000, interval: 100 })
    .toBe("succeeded");
  expect(keys).toEqual([`${run.id}:call:1`, `${run.id}:call:1`]);
}, 90_000); // two workers start (tsx, each several seconds on a loaded machine) and a backoff runs out
