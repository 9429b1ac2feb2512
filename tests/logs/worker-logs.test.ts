import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { POST as createCredential } from "@/app/api/v1/credentials/route";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { until } from "@/tests/helpers/poll";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { entrypointArgs } from "@/tests/helpers/entrypoints";

// The real worker (compiled: tests/helpers/entrypoints.ts), logging JSON at debug (a line per leg).
const SECRET = "sk-live-LOGTEST-9f8e7d6c5b4a";
let shop: TestShop;
let server: http.Server;
let base: string;
let worker: ChildProcess;
let stdout = "";
let stderr = "";

beforeAll(async () => {
  shop = await createShop();
  server = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end("{}"),
  );
  base = await listenLocally(server);
  worker = spawn(process.execPath, entrypointArgs("worker"), {
    env: { ...process.env, LOG_FORMAT: "json", LOG_LEVEL: "debug", HTTP_ACTION_ALLOW: "127.0.0.1,localhost" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  worker.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await until(
    async () => stdout,
    (text) => text.includes("is running"),
    { timeoutMs: 60_000, what: `the worker to start:\n${stdout}${stderr}` },
  );
});

afterAll(async () => {
  if (worker.exitCode === null) {
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    await exited;
  }
  await closeServer(server);
});

test("the worker's lines are JSON, a leg's carry jobId, runId, tenantId and leg, and no secret", async () => {
  const credential = await call<{ id: string }>(createCredential, {
    method: "POST",
    key: shop.keys.admin,
    body: {
      name: "Logged API",
      kind: "http_header",
      value: `Authorization: Bearer ${SECRET}`,
      allowedHosts: ["127.0.0.1"],
    },
  });
  expect(credential.status).toBe(201);
  const automationId = await publishFlow(
    shop.keys.editor,
    "Call and log",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "call",
          type: "auto.action.http_request",
          params: { url: `${base}/hook`, auth: { credentialId: credential.body.id } },
        },
      ],
      [["t", "call"]],
    ),
  );
  const data = { number: "#L1", status: "pending", total: 5, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", "log-1", data, "test");
  await upsertEntity(shop.tenant.id, "order", "log-1", { ...data, status: "paid" }, "test");
  const [run] = await settledRuns(automationId, 1, 30_000);
  expect(run!.status).toBe("succeeded");

  const lines = () =>
    stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          throw new Error(`Not a JSON line: ${line}`);
        }
      });
  const legLines = await until(
    async () => lines().filter((line) => line.runId === run!.id),
    (found) => found.length > 0,
    { timeoutMs: 10_000, what: `a log line for run ${run!.id}:\n${stdout}` },
  );
  for (const line of legLines)
    expect(line).toMatchObject({
      runId: run!.id,
      tenantId: shop.tenant.id,
      leg: 1,
      jobId: expect.stringMatching(/^\d+$/),
      level: expect.any(String),
      time: expect.any(String),
      msg: expect.any(String),
    });
  // graphile-worker's own lines come through pino too (its per-job lines at debug).
  expect(
    lines().some(
      (line) => line.component === "graphile-worker" && /^Completed task \d+/.test(String(line.msg)),
    ),
  ).toBe(true);
  expect(stdout + stderr).not.toContain(SECRET);
  expect(stderr).toBe("");
});
