import http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as runNowRoute } from "@/app/api/v1/automations/[id]/run-now/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as createAutomationRoute } from "@/app/api/v1/automations/route";
import { POST as createRoute } from "@/app/api/v1/credentials/route";
import {
  DELETE as deleteRoute,
  GET as getRoute,
  PATCH as updateRoute,
  PUT as rotateRoute,
} from "@/app/api/v1/credentials/[id]/route";
import { createAlertRule } from "@/lib/alerts/rules";
import { getDb } from "@/lib/db/client";
import { automationRunSteps } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { closeServer } from "@/tests/helpers/receiver";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Credentials know where they may go (issue 47). Two receivers on this machine, told apart by
 * their host names:
 *
 *   admin's API      http://localhost:<a>     the host the admin's credential may go to
 *   editor's server  http://127.0.0.1:<e>     where an editor would like it sent
 *
 * The editor may use the admin's credential in a flow; the credential reaches only localhost.
 */

const SECRET = "sk_live_warehouse_only_9QzX";

let shop: TestShop;
let other: TestShop;
let adminApi: http.Server;
let editorServer: http.Server;
let adminBase: string;
let editorBase: string;
/** Every request the editor's server got: path and authorization header. */
const stolen: { path: string; authorization?: string }[] = [];
const delivered: { path: string; authorization?: string }[] = [];
let credentialId: string;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}

beforeAll(async () => {
  [shop, other] = [await createShop(), await createShop()];
  editorServer = http.createServer((req, res) => {
    stolen.push({ path: req.url ?? "", authorization: req.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  editorBase = `http://127.0.0.1:${await listen(editorServer)}`;
  adminApi = http.createServer((req, res) => {
    delivered.push({ path: req.url ?? "", authorization: req.headers.authorization });
    if (req.url === "/moved") res.writeHead(302, { location: `${editorBase}/landed` }).end();
    else res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  adminBase = `http://localhost:${await listen(adminApi)}`;
  const made = await call<{ id: string; allowedHosts: string[] }>(createRoute, {
    method: "POST",
    key: shop.keys.admin,
    body: { name: "Warehouse API", kind: "bearer", value: SECRET, allowedHosts: ["localhost"] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.allowedHosts).toEqual(["localhost"]);
  credentialId = made.body.id;
});
afterAll(async () => {
  await closeServer(adminApi);
  await closeServer(editorServer);
});
workerForFile();

const calling = (url: string, trigger: Record<string, unknown> = { type: "auto.trigger.order_paid" }) =>
  flow(
    [
      { id: "t", ...trigger } as { id: string; type: string },
      { id: "call", type: "auto.action.http_request", params: { url, auth: { credentialId } } },
    ],
    [["t", "call"]],
  );

async function pay(orderId: string) {
  const data = { number: `#${orderId}`, status: "pending", total: 5, currency: "EUR" };
  await upsertEntity(shop.tenant.id, "order", orderId, data, "test");
  await upsertEntity(shop.tenant.id, "order", orderId, { ...data, status: "paid" }, "test");
}

async function callStep(runId: string) {
  const steps = await getDb().select().from(automationRunSteps).where(eq(automationRunSteps.runId, runId));
  return steps.find((s) => s.nodeId === "call");
}

const REFUSED_TO_EDITOR =
  "Refused to send the credential 'Warehouse API' to 127.0.0.1: it may only be sent to localhost; an admin can add hosts in Settings → Credentials.";

/** Sets the credential's hosts as an admin. */
async function setHosts(allowedHosts: string[]) {
  const reply = await call(updateRoute, {
    method: "PATCH",
    key: shop.keys.admin,
    params: { id: credentialId },
    body: { allowedHosts },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/**
 * A flow published while the credential could go to the editor's server, which an admin then
 * took off its list: what a run must refuse on its own (the list changed after publishing).
 */
async function publishedBeforeTheHostWasRemoved(name: string, graph: unknown): Promise<string> {
  await setHosts(["localhost", "127.0.0.1"]);
  try {
    return await publishFlow(shop.keys.editor, name, graph);
  } finally {
    await setHosts(["localhost"]);
  }
}

describe("a credential goes only to its hosts", () => {
  test("an editor cannot publish a step that sends it elsewhere; the draft's ready issues say why", async () => {
    const created = await call<{ id: string }>(createAutomationRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Send it home", graph: calling(`${editorBase}/steal`) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const published = await call<ErrorReply>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
    });
    expect(published.status).toBe(422);
    expect(published.body.error.message).toBe(
      "Fix 1 issue before publishing: This step would send the credential 'Warehouse API' to 127.0.0.1, but it may only be sent to localhost: choose another credential, or ask an admin to add the host in Settings → Credentials.",
    );
    // (The same step to an allowed host publishes: the next tests' flows.)
  });

  test("a step whose host was taken off the list is refused before a byte is sent: run, dry run and Run now", async () => {
    stolen.length = 0;
    const automationId = await publishedBeforeTheHostWasRemoved(
      "Send it home",
      calling(`${editorBase}/steal`),
    );
    await pay("steal-1");
    const [run] = await settledRuns(automationId, 1);
    expect(run!.status).toBe("failed");
    const step = await callStep(run!.id);
    expect(step).toMatchObject({ status: "failed", error: REFUSED_TO_EDITOR });
    // Refused, not tried again: another attempt would be refused the same way.
    expect(step!.reason).toBeNull();

    const dry = await call<{ steps: { nodeId: string; outcome: string; error?: string }[] }>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: {},
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.steps.find((s) => s.nodeId === "call")).toMatchObject({
      outcome: "error",
      error: REFUSED_TO_EDITOR,
    });

    const scheduled = await publishedBeforeTheHostWasRemoved(
      "Send it home on demand",
      calling(`${editorBase}/run-now`, {
        type: "auto.trigger.schedule",
        params: { cron: "0 9 * * *", timezone: "UTC" },
      }),
    );
    const fired = await call(runNowRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: scheduled },
    });
    expect(fired.status, JSON.stringify(fired.body)).toBe(202);
    const [manual] = await settledRuns(scheduled, 1);
    expect(manual!.status).toBe("failed");
    expect((await callStep(manual!.id))?.error).toBe(REFUSED_TO_EDITOR);

    // Nothing at all reached the editor's server, let alone the secret.
    expect(stolen).toEqual([]);
  });

  test("a host filled in by a token publishes, and the run checks the host it renders", async () => {
    stolen.length = 0;
    const automationId = await publishFlow(
      shop.keys.editor,
      "Send it where the order says",
      calling(`http://{entity.sourceName}:${new URL(editorBase).port}/token-host`),
    );
    const data = { number: "#token-1", status: "pending", total: 5, currency: "EUR" };
    const sourceName = new URL(editorBase).hostname;
    await upsertEntity(shop.tenant.id, "order", "token-1", { ...data, sourceName }, "test");
    await upsertEntity(shop.tenant.id, "order", "token-1", { ...data, sourceName, status: "paid" }, "test");
    const [run] = await settledRuns(automationId, 1);
    expect(run!.status).toBe("failed");
    expect((await callStep(run!.id))?.error).toBe(REFUSED_TO_EDITOR);
    expect(stolen).toEqual([]);
  });

  test("a step to an allowed host sends it; a redirect from there to another host is refused and nothing arrives there", async () => {
    stolen.length = 0;
    delivered.length = 0;
    const allowed = await publishFlow(
      shop.keys.editor,
      "Send it to the warehouse",
      calling(`${adminBase}/stock`),
    );
    await pay("allowed-1");
    const [ok] = await settledRuns(allowed, 1);
    expect(ok!.status).toBe("succeeded");
    expect(delivered).toEqual([{ path: "/stock", authorization: `Bearer ${SECRET}` }]);

    const moved = await publishFlow(shop.keys.editor, "Follow the redirect", calling(`${adminBase}/moved`));
    await pay("moved-1");
    const [run] = await settledRuns(moved, 1);
    expect(run!.status).toBe("failed");
    expect((await callStep(run!.id))?.error).toBe(
      "Refused to follow localhost's redirect to 127.0.0.1 with the credential 'Warehouse API': it may only be sent to localhost; an admin can add hosts in Settings → Credentials.",
    );
    expect(stolen).toEqual([]);
  });

  test("an admin adds a host and it takes effect at once; a wildcard covers subdomains only", async () => {
    const wide = await call<{ allowedHosts: string[] }>(updateRoute, {
      method: "PATCH",
      key: shop.keys.admin,
      params: { id: credentialId },
      body: { allowedHosts: ["localhost", "*.warehouse.test"] },
    });
    expect(wide.status, JSON.stringify(wide.body)).toBe(200);
    const dry = (url: string) =>
      call<{ steps: { nodeId: string; outcome: string; error?: string }[] }>(dryRunRoute, {
        method: "POST",
        key: shop.keys.editor,
        params: { id: automationForDryRun },
        body: { graph: calling(url) },
      }).then((r) => r.body.steps.find((s) => s.nodeId === "call"));
    const automationForDryRun = await publishFlow(shop.keys.editor, "Dry runs", calling(`${adminBase}/x`));
    // A dry run asks the credential's hosts before the address: a wildcard host need not resolve.
    expect((await dry("https://warehouse.test/x"))?.error).toMatch(
      /^Refused to send the credential 'Warehouse API' to warehouse\.test: it may only be sent to localhost, \*\.warehouse\.test;/,
    );
    expect((await dry("https://evilwarehouse.test/x"))?.error).toMatch(/to evilwarehouse\.test:/);
    expect((await dry("https://eu.api.warehouse.test/x"))?.error ?? "").not.toContain("credential");

    const added = await call(updateRoute, {
      method: "PATCH",
      key: shop.keys.admin,
      params: { id: credentialId },
      body: { allowedHosts: ["localhost", "127.0.0.1"] },
    });
    expect(added.status).toBe(200);
    stolen.length = 0;
    const now = await publishFlow(shop.keys.editor, "Now allowed", calling(`${editorBase}/allowed`));
    await pay("now-allowed-1");
    const [run] = await settledRuns(now, 1);
    expect(run!.status).toBe("succeeded");
    // (The shop's earlier flows ran on this order too, and may now send it here as well.)
    expect(stolen.filter((r) => r.path === "/allowed")).toEqual([
      { path: "/allowed", authorization: `Bearer ${SECRET}` },
    ]);
    // Back as it was for the other tests.
    await call(updateRoute, {
      method: "PATCH",
      key: shop.keys.admin,
      params: { id: credentialId },
      body: { allowedHosts: ["localhost"] },
    });
  });
});

describe("only admins change credentials", () => {
  test("an editor cannot create, rotate, set hosts or delete (403), and nothing changes", async () => {
    const created = await call<ErrorReply>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Mine now", kind: "bearer", value: "editor-made-1", allowedHosts: ["127.0.0.1"] },
    });
    expect(created.status).toBe(403);
    for (const [handler, method, body] of [
      [rotateRoute, "PUT", { value: "editor-rotated-1", confirm: true }],
      [updateRoute, "PATCH", { allowedHosts: ["127.0.0.1"] }],
      [deleteRoute, "DELETE", undefined],
    ] as const) {
      const res = await call<ErrorReply>(handler, {
        method,
        key: shop.keys.editor,
        params: { id: credentialId },
        path: method === "DELETE" ? "/?confirm=true" : "/",
        body,
      });
      expect(res.status, method).toBe(403);
    }
    const still = await call<{ allowedHosts: string[]; last4: string }>(getRoute, {
      key: shop.keys.editor,
      params: { id: credentialId },
    });
    expect(still.body).toMatchObject({ allowedHosts: ["localhost"], last4: SECRET.slice(-4) });
  });

  test("a credential an HTTP step sends needs a host; a Slack webhook's is its URL's", async () => {
    const none = await call<ErrorReply>(createRoute, {
      method: "POST",
      key: shop.keys.admin,
      body: { name: "Hostless", kind: "basic", value: "user:pass" },
    });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain("Name at least one host it may be sent to");
    const url = await call<ErrorReply>(createRoute, {
      method: "POST",
      key: shop.keys.admin,
      body: {
        name: "Hosted",
        kind: "basic",
        value: "user:pass",
        allowedHosts: ["https://api.example.com/v1"],
      },
    });
    expect(url.status).toBe(422);
    expect(JSON.stringify(url.body)).toContain("without https://");
    const slack = await call<{ id: string; allowedHosts: string[] }>(createRoute, {
      method: "POST",
      key: shop.keys.admin,
      body: { name: "Ops Slack", kind: "slack_webhook", value: "https://Hooks.Slack.com/services/T0/B0/x1" },
    });
    expect(slack.body.allowedHosts).toEqual(["hooks.slack.com"]);
    const patched = await call<ErrorReply>(updateRoute, {
      method: "PATCH",
      key: shop.keys.admin,
      params: { id: slack.body.id },
      body: { allowedHosts: ["127.0.0.1"] },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toContain("Rotate it to point it elsewhere");
  });

  test("rotating or deleting the credential an alert rule uses is a 409 naming the rule, unless an admin confirms", async () => {
    const slack = await call<{ id: string }>(createRoute, {
      method: "POST",
      key: shop.keys.admin,
      body: {
        name: "Alerts channel",
        kind: "slack_webhook",
        value: "https://hooks.slack.com/services/T1/B1/a",
      },
    });
    await createAlertRule(await callerOf(shop, "admin"), {
      kind: "failed_runs",
      channel: { type: "slack", credentialId: slack.body.id },
    });
    const rule =
      "'A run fails or partly fails (then a digest at most every 15 minutes)' (on every automation)";
    const rotate = await call<ErrorReply>(rotateRoute, {
      method: "PUT",
      key: shop.keys.admin,
      params: { id: slack.body.id },
      body: { value: "https://hooks.slack.com/services/T1/B1/b" },
    });
    expect(rotate.status).toBe(409);
    expect(rotate.body.error.message).toContain(`the alert rule ${rule}`);
    expect(rotate.body.error.message).toContain("confirm: true");
    const refused = await call<ErrorReply>(deleteRoute, {
      method: "DELETE",
      key: shop.keys.admin,
      params: { id: slack.body.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`the alert rule ${rule}`);
    expect(refused.body.error.message).toContain("?confirm=true");

    const rotated = await call(rotateRoute, {
      method: "PUT",
      key: shop.keys.admin,
      params: { id: slack.body.id },
      body: { value: "https://hooks.slack.com/services/T1/B1/b", confirm: true },
    });
    expect(rotated.status).toBe(200);
    const deleted = await call(deleteRoute, {
      method: "DELETE",
      key: shop.keys.admin,
      params: { id: slack.body.id },
      path: "/?confirm=true",
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
  });

  test("another shop's admin gets 404 for this shop's credential, by every route", async () => {
    for (const [handler, method, body] of [
      [getRoute, "GET", undefined],
      [rotateRoute, "PUT", { value: "stolen-1234", confirm: true }],
      [updateRoute, "PATCH", { allowedHosts: ["127.0.0.1"] }],
      [deleteRoute, "DELETE", undefined],
    ] as const) {
      const res = await call<ErrorReply>(handler, {
        method,
        key: other.keys.admin,
        params: { id: credentialId },
        path: method === "DELETE" ? "/?confirm=true" : "/",
        body,
      });
      expect(res.status, method).toBe(404);
    }
  });
});
