import http from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET as getAutomationRoute } from "@/app/api/v1/automations/[id]/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/credentials/route";
import {
  DELETE as deleteRoute,
  GET as getRoute,
  PUT as rotateRoute,
} from "@/app/api/v1/credentials/[id]/route";
import { POST as hookRoute } from "@/app/api/hooks/[token]/route";
import { signWebhook } from "@/lib/automations/webhooks/signature";
import { getDb } from "@/lib/db/client";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

interface Credential {
  id: string;
  name: string;
  kind: string;
  last4: string;
}

let shop: TestShop;
let other: TestShop;
let server: http.Server;
let base: string;
/** What the receiver saw: each request's authorization and x-api-key headers. */
const seen: { authorization?: string; apiKey?: string }[] = [];

beforeAll(async () => {
  [shop, other] = [await createShop(), await createShop()];
  server = http.createServer((req, res) => {
    seen.push({
      authorization: req.headers.authorization,
      apiKey: req.headers["x-api-key"] as string | undefined,
    });
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  await closeServer(server);
});
workerForFile();

const create = (key: string, body: unknown) =>
  call<Credential & Partial<ErrorReply>>(createRoute, { method: "POST", key, body });

/** Every text column of every table, searched for `needle`: where a secret could still sit. */
async function rowsContaining(needle: string): Promise<string[]> {
  const tables = await getDb().execute<{ name: string }>(sql`
    select format('%I.%I', schemaname, tablename) as name from pg_tables
    where schemaname in ('public', 'graphile_worker')`);
  const found: string[] = [];
  for (const { name } of tables) {
    const [row] = await getDb().execute<{ n: number }>(
      sql.raw(
        `select count(*)::int as n from ${name} t where t::text like '%${needle.replace(/'/g, "''")}%'`,
      ),
    );
    if (row!.n > 0) found.push(name);
  }
  return found;
}

async function pay(orderId: string) {
  const data = { number: `#${orderId}`, status: "pending", total: 5, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", orderId, data, "test");
  await upsertEntity(shop.tenant.id, "order", orderId, { ...data, status: "paid" }, "test");
}

describe("credentials", () => {
  test("an admin stores one with its hosts; every role lists its name, hosts and last 4 characters, never the value", async () => {
    const value = "sk_live_admin_stores_Zq9w";
    const made = await create(shop.keys.admin, {
      name: "Loyalty API",
      kind: "bearer",
      value,
      allowedHosts: ["API.Loyalty.test", "*.loyalty.test"],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      name: "Loyalty API",
      kind: "bearer",
      last4: "Zq9w",
      allowedHosts: ["api.loyalty.test", "*.loyalty.test"],
    });
    for (const role of ["viewer", "editor", "admin"] as const) {
      const list = await call<{ items: Credential[] }>(listRoute, { key: shop.keys[role] });
      expect(list.status).toBe(200);
      expect(list.body.items.map((c) => c.name)).toContain("Loyalty API");
      expect(JSON.stringify(list.body)).not.toContain(value);
      const one = await call(getRoute, { key: shop.keys[role], params: { id: made.body.id } });
      expect(JSON.stringify(one.body)).not.toContain(value);
    }
    // At rest it is sealed: the value is in no table.
    expect(await rowsContaining(value)).toEqual([]);
  });

  test("a viewer cannot write; another shop's credential is not found; a bad value changes nothing", async () => {
    const refused = await create(shop.keys.viewer, { name: "Nope", kind: "bearer", value: "abcd1234" });
    expect(refused.status).toBe(403);
    const mine = await create(shop.keys.admin, {
      name: "Mine",
      kind: "bearer",
      value: "mine-1234",
      allowedHosts: ["api.mine.test"],
    });
    for (const [handler, method] of [
      [getRoute, "GET"],
      [rotateRoute, "PUT"],
      [deleteRoute, "DELETE"],
    ] as const) {
      const res = await call<ErrorReply>(handler, {
        method,
        key: other.keys.admin,
        params: { id: mine.body.id },
        body: method === "PUT" ? { value: "stolen-1234" } : undefined,
      });
      expect(res.status).toBe(404);
    }
    const bad = await create(shop.keys.admin, {
      name: "Header",
      kind: "http_header",
      value: "no colon here",
      allowedHosts: ["api.mine.test"],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.message).toContain("Header-Name: value");
    const taken = await create(shop.keys.admin, {
      name: "Mine",
      kind: "bearer",
      value: "again-1234",
      allowedHosts: ["api.mine.test"],
    });
    expect(taken.status).toBe(409);
    const list = await call<{ items: Credential[] }>(listRoute, { key: shop.keys.viewer });
    expect(list.body.items.filter((c) => c.name === "Mine" || c.name === "Header")).toHaveLength(1);
  });

  test("an HTTP step sends its credential's headers; a rotation is sent from the next run on", async () => {
    const made = await create(shop.keys.admin, {
      name: "Stock API",
      kind: "http_header",
      value: "X-Api-Key: first-KEY1",
      allowedHosts: ["127.0.0.1"],
    });
    const automationId = await publishFlow(
      shop.keys.editor,
      "Call with a key",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "call",
            type: "auto.action.http_request",
            params: { url: `${base}/stock`, auth: { credentialId: made.body.id } },
          },
        ],
        [["t", "call"]],
      ),
    );
    seen.length = 0;
    await pay("cred-1");
    await settledRuns(automationId, 1);
    expect(seen.map((s) => s.apiKey)).toEqual(["first-KEY1"]);

    const rotated = await call<Credential>(rotateRoute, {
      method: "PUT",
      key: shop.keys.admin,
      params: { id: made.body.id },
      body: { value: "X-Api-Key: second-KEY2" },
    });
    expect(rotated.body.last4).toBe("KEY2");
    await pay("cred-2");
    await settledRuns(automationId, 2);
    expect(seen.map((s) => s.apiKey)).toEqual(["first-KEY1", "second-KEY2"]);

    // In use by an active automation: the delete is refused, naming it; paused, it goes.
    const refused = await call<ErrorReply>(deleteRoute, {
      method: "DELETE",
      key: shop.keys.admin,
      params: { id: made.body.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("'Call with a key'");
    await call(pauseRoute, { method: "POST", key: shop.keys.editor, params: { id: automationId }, body: {} });
    const deleted = await call(deleteRoute, {
      method: "DELETE",
      key: shop.keys.admin,
      params: { id: made.body.id },
    });
    expect(deleted.status).toBe(200);
    expect(await rowsContaining("second-KEY2")).toEqual([]);
  });

  test("an Authorization header typed into a flow becomes a credential on save, and is still sent", async () => {
    const typed = "Bearer typed-into-the-flow-T0k3";
    const automationId = await publishFlow(
      shop.keys.editor,
      "Typed secret",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "call",
            type: "auto.action.http_request",
            params: { url: `${base}/typed`, headers: { Authorization: typed, "X-Shop": "demo" } },
          },
        ],
        [["t", "call"]],
      ),
    );
    const automation = await call<{
      draftGraph: { nodes: { id: string; params: Record<string, unknown> }[] };
    }>(getAutomationRoute, { key: shop.keys.viewer, params: { id: automationId } });
    const params = automation.body.draftGraph.nodes.find((n) => n.id === "call")!.params;
    expect(params.headers).toEqual({ "X-Shop": "demo" });
    expect(params.auth).toEqual({ credentialId: expect.any(String) });
    const list = await call<{ items: Credential[] }>(listRoute, { key: shop.keys.viewer });
    // It may go where the step sends it, and nowhere else.
    expect(list.body.items).toContainEqual(
      expect.objectContaining({
        name: "Typed secret: Authorization",
        kind: "http_header",
        last4: "T0k3",
        allowedHosts: ["127.0.0.1"],
      }),
    );
    seen.length = 0;
    await pay("typed-1");
    await settledRuns(automationId, 1);
    expect(seen.map((s) => s.authorization)).toEqual([typed]);
    expect(await rowsContaining("typed-into-the-flow")).toEqual([]);
  });

  test("a webhook trigger's plain secret becomes a credential; requests signed with it are accepted", async () => {
    const secret = "whsec-plain-in-graph-9x7Q";
    const token = "tok_credentials_hook_1234";
    await publishFlow(
      shop.keys.editor,
      "Signed hook",
      flow(
        [
          { id: "in", type: "auto.trigger.webhook", params: { token, secret } },
          { id: "task", type: "auto.action.create_task", params: { title: "Hooked" } },
        ],
        [["in", "task"]],
      ),
    );
    expect(await rowsContaining(secret)).toEqual([]);
    const body = JSON.stringify({ source: "erp" });
    const deliver = (signature: string) =>
      hookRoute(
        new Request(`http://test.local/api/hooks/${token}`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-tillflow-signature": signature },
        }),
        { params: Promise.resolve({ token }) },
      );
    expect((await deliver(signWebhook("some-other-secret", body))).status).toBe(401);
    expect((await deliver(signWebhook(secret, body))).status).toBe(202);
  });

  test("a graph naming another shop's credential is refused and nothing is saved", async () => {
    const theirs = await create(other.keys.admin, {
      name: "Theirs",
      kind: "bearer",
      value: "their-secret-1",
      allowedHosts: ["127.0.0.1"],
    });
    const res = await call<ErrorReply>((await import("@/app/api/v1/automations/route")).POST, {
      method: "POST",
      key: shop.keys.editor,
      body: {
        name: "Borrowed",
        graph: flow(
          [
            { id: "t", type: "auto.trigger.order_paid" },
            {
              id: "call",
              type: "auto.action.http_request",
              params: { url: `${base}/x`, auth: { credentialId: theirs.body.id } },
            },
          ],
          [["t", "call"]],
        ),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("a credential this shop does not have");
    const [row] = await getDb().execute<{ n: number }>(
      sql`select count(*)::int as n from automations where tenant_id = ${shop.tenant.id} and name = 'Borrowed'`,
    );
    expect(row!.n).toBe(0);
  });
});
