import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { getDb } from "@/lib/db/client";
import { automationRunSteps } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer } from "@/tests/helpers/receiver";

/**
 * A customer's name cannot change the request an HTTP action sends (SPEC §2 "Trust at the
 * edges"): through the real engine, to a local receiver, a name with quotes stays one JSON
 * string, a name with `&` and `../` stays one query value, a name with a line break stays one
 * header — and a dry run shows the same escaped request.
 */

interface Received {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let port: number;
const received: Received[] = [];
let shop: TestShop;

const EVE = 'Eve","vip":true,"x":"';
const BO = "Bo&x=1/../admin?y=2";
const MAL = "Mal\r\nX-Injected: yes";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://receiver");
      received.push({
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  shop = await createShop();
});

afterAll(async () => {
  await closeServer(server);
});
workerForFile();

//  customer_created ──▶ POST /hook?name={entity.name}&src=tillflow, a JSON body and a header with the name
const graph = () =>
  flow(
    [
      { id: "t", type: "auto.trigger.customer_created" },
      {
        id: "call",
        type: "auto.action.http_request",
        params: {
          url: `http://127.0.0.1:${port}/hook?name={entity.name}&src=tillflow`,
          method: "POST",
          headers: { "X-Customer": "{entity.name}" },
          body: '{"name":"{entity.name}","vip":false,"spent":{entity.totalSpent},"email":{entity.email}}',
        },
      },
    ],
    [["t", "call"]],
  );

const customer = (name: string, email: string) => ({ email, name, totalSpent: 240.5 });

describe("an HTTP action's request, whatever the customer is called", () => {
  test("arrives as the merchant wrote it: one JSON string, one query value, one header", async () => {
    const id = await publishFlow(shop.keys.editor, "Tell the CRM", graph());
    await upsertEntity(shop.tenant.id, "customer", "c-eve", customer(EVE, "eve@example.com"), "test");
    await upsertEntity(shop.tenant.id, "customer", "c-bo", customer(BO, "bo@example.com"), "test");
    await upsertEntity(shop.tenant.id, "customer", "c-mal", customer(MAL, "mal@example.com"), "test");
    const runs = await settledRuns(id, 3);
    expect(runs.map((r) => [r.status, r.error])).toEqual([
      ["succeeded", null],
      ["succeeded", null],
      ["succeeded", null],
    ]);

    expect(received).toHaveLength(3);
    const byEmail = new Map(
      received.map((r) => [(JSON.parse(r.body) as { email: string }).email, r] as const),
    );
    const eve = byEmail.get("eve@example.com")!;
    // Valid JSON, the name intact, and vip still false: the quotes did not end the string.
    expect(JSON.parse(eve.body)).toEqual({ name: EVE, vip: false, spent: 240.5, email: "eve@example.com" });
    expect(eve.query.get("name")).toBe(EVE);

    const bo = byEmail.get("bo@example.com")!;
    // `&`, `?`, `/` and `..` stayed inside the one query value: no new parameter, the same path.
    expect(bo.path).toBe("/hook");
    expect([...bo.query.keys()]).toEqual(["name", "src"]);
    expect(bo.query.get("name")).toBe(BO);
    expect(bo.query.get("src")).toBe("tillflow");
    expect(bo.query.get("x")).toBeNull();

    const mal = byEmail.get("mal@example.com")!;
    // The line break did not start a header of its own.
    expect(mal.headers["x-injected"]).toBeUndefined();
    expect(mal.headers["x-customer"]).toBe("Mal X-Injected: yes");
    expect(JSON.parse(mal.body)).toMatchObject({ name: MAL, vip: false });
  });

  test("a name a header cannot carry fails the step once, in words, and sends nothing", async () => {
    const id = await publishFlow(shop.keys.editor, "Tell the CRM in Chinese", graph());
    const before = received.length;
    await upsertEntity(shop.tenant.id, "customer", "c-li", customer("李小龙", "li@example.com"), "test");
    const [run] = await settledRuns(id, 1);
    expect(run!.status).toBe("failed");
    const steps = await getDb()
      .select({ error: automationRunSteps.error })
      .from(automationRunSteps)
      .where(and(eq(automationRunSteps.runId, run!.id), eq(automationRunSteps.nodeId, "call")));
    // One attempt, refused before sending: not retried as if the receiver had not answered.
    expect(steps.map((s) => s.error)).toEqual([
      "The X-Customer header holds characters an HTTP header cannot carry. Put the value in the body, or write the token with | url to percent-encode it.",
    ]);
    expect(received).toHaveLength(before);
  });

  test("a dry run shows the request escaped as it would be sent", async () => {
    const id = await publishFlow(shop.keys.editor, "Tell the CRM (try)", graph());
    const res = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.viewer,
      params: { id },
      body: { entityId: "c-eve" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const step = res.body.steps.find((s) => s.nodeId === "call")!;
    const params = step.resolvedParams as { url: string; body: string };
    expect(JSON.parse(params.body)).toMatchObject({ name: EVE, vip: false });
    expect(new URL(params.url).searchParams.get("name")).toBe(EVE);
  });
});
