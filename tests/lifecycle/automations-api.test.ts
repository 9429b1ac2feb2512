import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as hookRoute } from "@/app/api/hooks/[token]/route";
import { POST as activateRoute } from "@/app/api/v1/automations/[id]/activate/route";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as pauseRoute } from "@/app/api/v1/automations/[id]/pause/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { GET as getRoute } from "@/app/api/v1/automations/[id]/route";
import { POST as revertRoute } from "@/app/api/v1/automations/[id]/versions/[version]/revert/route";
import { GET as versionsRoute } from "@/app/api/v1/automations/[id]/versions/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/automations/route";
import { GET as nodeTypesRoute } from "@/app/api/v1/node-types/route";
import { GET as outboxRoute } from "@/app/api/v1/outbox/route";
import { executeRun } from "@/lib/automations/engine/pipeline";
import { signWebhook } from "@/lib/automations/webhooks/signature";
import { getDb } from "@/lib/db/client";
import { automationRuns, staffTasks } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

interface Automation {
  id: string;
  name: string;
  status: string;
  version: number;
  draftRevision: number;
  activeGraph: { nodes: { id: string; params: Record<string, unknown> }[] } | null;
  readyIssues: { nodeId?: string; message: string }[];
}
type Reply = Automation & ErrorReply;

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});

const tagFlow = (tag: string) =>
  flow(
    [
      { id: "t", type: "auto.trigger.order_created" },
      { id: "tag", type: "auto.action.add_tag", params: { tag } },
    ],
    [["t", "tag"]],
  );

describe("drafts, publishing and versions", () => {
  test("a draft saves with issues; a stale revision is a 409; publishing bumps the version only when something changed", async () => {
    const created = await call<Reply>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Draft", graph: tagFlow("") },
    });
    expect(created.body).toMatchObject({ status: "draft", version: 0, draftRevision: 1 });
    expect(created.body.readyIssues).toEqual([
      expect.objectContaining({ nodeId: "tag", message: expect.stringMatching(/tag/i) }),
    ]);
    const id = created.body.id;

    const saved = await call<Reply>(draftRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { graph: tagFlow("v1"), baseRevision: 1 },
    });
    expect(saved.body).toMatchObject({ draftRevision: 2, readyIssues: [] });
    const stale = await call<Reply>(draftRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { graph: tagFlow("other tab"), baseRevision: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toMatch(/changed elsewhere/);

    const first = await call<{ automation: Automation; published: boolean; impact: { message: string } }>(
      publishRoute,
      {
        method: "POST",
        key: shop.keys.editor,
        params: { id },
        body: { note: "launch" },
      },
    );
    expect(first.body).toMatchObject({
      published: true,
      automation: { status: "active", version: 1 },
      impact: { message: "No runs are waiting." },
    });
    const again = await call<{ automation: Automation; published: boolean }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(again.body).toMatchObject({ published: false, automation: { version: 1 } });

    await call(draftRoute, {
      method: "PUT",
      key: shop.keys.editor,
      params: { id },
      body: { graph: tagFlow("v2"), name: "Draft two" },
    });
    const second = await call<{ automation: Automation }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(second.body.automation).toMatchObject({ version: 2, name: "Draft two" });

    const versions = await call<{
      items: { version: number; note: string; author: string; active: boolean }[];
    }>(versionsRoute, {
      key: shop.keys.viewer,
      params: { id },
    });
    expect(versions.body.items.map((v) => [v.version, v.note, v.active])).toEqual([
      [2, "", true],
      [1, "launch", false],
    ]);
    expect(versions.body.items[0]!.author).toMatch(/^API key tf_/);

    const reverted = await call<Reply>(revertRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id, version: "1" },
    });
    expect(reverted.body).toMatchObject({ version: 3, name: "Draft" });
    expect(reverted.body.activeGraph!.nodes.find((n) => n.id === "tag")!.params).toEqual({ tag: "v1" });
    const missing = await call<Reply>(revertRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id, version: "9" },
    });
    expect(missing.status).toBe(404);

    const list = await call<{ items: { id: string; version: number; triggerTypes: string[] }[] }>(listRoute, {
      key: shop.keys.viewer,
      path: "/api/v1/automations?q=draft",
    });
    expect(list.body.items).toEqual([
      expect.objectContaining({ id, version: 3, triggerTypes: ["auto.trigger.order_created"] }),
    ]);
  });

  test("activating an automation never published is refused", async () => {
    const created = await call<Reply>(createRoute, {
      method: "POST",
      key: shop.keys.editor,
      body: { name: "Never", graph: tagFlow("x") },
    });
    const res = await call<Reply>(activateRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: created.body.id },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("Publish this automation before activating it.");
  });
});

describe("off means off", () => {
  test("a run queued before its automation was paused is cancelled with a reason; after activation, new runs act", async () => {
    const id = await publishFlow(shop.keys.editor, "Pausable", tagFlow("paused-test"));
    await upsertEntity(
      shop.tenant.id,
      "order",
      "pz-1",
      { number: "1", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    const paused = await call<{ automation: Automation }>(pauseRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(paused.body.automation.status).toBe("paused");
    const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
    await executeRun(run!.id);
    const [after] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
    expect(after).toMatchObject({
      status: "cancelled",
      reason: "The automation was paused before this run started.",
    });

    // While paused, events start no runs at all.
    await upsertEntity(
      shop.tenant.id,
      "order",
      "pz-2",
      { number: "2", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    expect(
      await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id)),
    ).toHaveLength(1);

    const activated = await call<{ automation: Automation }>(activateRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(activated.body.automation).toMatchObject({ status: "active", version: 1 });
    await upsertEntity(
      shop.tenant.id,
      "order",
      "pz-3",
      { number: "3", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    expect(
      await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id)),
    ).toHaveLength(2);
  });

  test("the list shows each automation's last run and how many runs are waiting", async () => {
    const id = await publishFlow(
      shop.keys.editor,
      "Listed waits",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "x" } },
        ],
        [
          ["t", "w"],
          ["w", "tag"],
        ],
      ),
    );
    await upsertEntity(
      shop.tenant.id,
      "order",
      "lw-1",
      { number: "1", status: "pending", total: 1, currency: "EUR" },
      "test",
    );
    const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
    await executeRun(run!.id);
    const list = await call<{ items: { id: string; lastRunAt: string | null; waitingRuns: number }[] }>(
      listRoute,
      {
        key: shop.keys.viewer,
        path: "/api/v1/automations?q=listed",
      },
    );
    expect(list.body.items).toEqual([
      expect.objectContaining({ id, lastRunAt: run!.createdAt.toISOString(), waitingRuns: 1 }),
    ]);
  });

  test("a viewer cannot pause", async () => {
    const id = await publishFlow(shop.keys.editor, "Viewer pause", tagFlow("v"));
    const res = await call<Reply>(pauseRoute, { method: "POST", key: shop.keys.viewer, params: { id } });
    expect(res.status).toBe(403);
    const got = await call<Reply>(getRoute, { key: shop.keys.viewer, params: { id } });
    expect(got.body.status).toBe("active");
  });
});

describe("inbound webhooks", () => {
  const secret = "s3cret-value";
  // X-Tillflow-Signature (SPEC §2); each delivery is signed afresh, a retry too.
  let sent = Math.floor(Date.now() / 1000);
  const sign = (body: string) => signWebhook(secret, body, (sent += 1));

  async function hook(token: string, body: string, headers: Record<string, string> = {}) {
    const req = new Request(`http://test.local/api/hooks/${token}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    });
    const res = await hookRoute(req, { params: Promise.resolve({ token }) });
    return {
      status: res.status,
      body: (await res.json()) as { runIds?: string[]; duplicate?: boolean } & Partial<ErrorReply>,
    };
  }

  test("a signed call starts one run per idempotency key; a bad signature or unknown token changes nothing", async () => {
    const token = crypto.randomBytes(18).toString("base64url");
    const id = await publishFlow(
      shop.keys.editor,
      "Hooked",
      flow(
        [
          { id: "in", type: "auto.trigger.webhook", params: { token, secret } },
          {
            id: "task",
            type: "auto.action.create_task",
            params: { title: "Call from {event.payload.body.source}" },
          },
        ],
        [["in", "task"]],
      ),
    );
    const body = JSON.stringify({ source: "erp" });
    const ok = await hook(token, body, { "x-tillflow-signature": sign(body), "idempotency-key": "call-1" });
    expect(ok.status).toBe(202);
    expect(ok.body.runIds).toHaveLength(1);
    const repeat = await hook(token, body, {
      "x-tillflow-signature": sign(body),
      "idempotency-key": "call-1",
    });
    expect(repeat.body).toMatchObject({ duplicate: true, runIds: ok.body.runIds });

    const forged = await hook(token, body, { "x-tillflow-signature": sign("other") });
    expect(forged.status).toBe(401);
    const unknown = await hook("no-such-token-at-all", body);
    expect(unknown.status).toBe(404);
    expect(
      await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id)),
    ).toHaveLength(1);

    await executeRun(ok.body.runIds![0]!);
    const [run] = await getDb()
      .select()
      .from(automationRuns)
      .where(eq(automationRuns.id, ok.body.runIds![0]!));
    expect(run!.status).toBe("succeeded");
    const tasks = await getDb().select().from(staffTasks).where(eq(staffTasks.runId, run!.id));
    expect(tasks.map((t) => t.title)).toEqual(["Call from erp"]);
  });
});

test("the outbox lists a flow's emails with their rendered body", async () => {
  const id = await publishFlow(
    shop.keys.editor,
    "Mailer",
    flow(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: { purpose: "transactional", subject: "Welcome {entity.name}", body: "Hello {entity.name}" },
        },
      ],
      [["t", "mail"]],
    ),
  );
  await upsertEntity(shop.tenant.id, "customer", "cu-1", { email: "bo@example.com", name: "Bo <3" }, "test");
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  await executeRun(run!.id);
  const outbox = await call<{ items: { to: string; subject: string; bodyHtml: string }[] }>(outboxRoute, {
    key: shop.keys.viewer,
    path: "/api/v1/outbox?kind=email",
  });
  expect(outbox.body.items[0]).toMatchObject({
    to: "bo@example.com",
    subject: "Welcome Bo <3",
    bodyHtml: "Hello Bo &lt;3",
  });
  const other = await createShop();
  const theirs = await call<{ items: unknown[] }>(outboxRoute, {
    key: other.keys.admin,
    path: "/api/v1/outbox",
  });
  expect(theirs.body.items).toEqual([]);
});

test("the node types endpoint lists the registry with JSON Schema params", async () => {
  const res = await call<{ items: { type: string; category: string; paramsSchema: { type?: string } }[] }>(
    nodeTypesRoute,
    {
      key: shop.keys.viewer,
    },
  );
  expect(res.status).toBe(200);
  const types = res.body.items.map((i) => i.type);
  expect(types).toEqual(
    expect.arrayContaining(["auto.trigger.order_paid", "auto.condition.field", "auto.action.http_request"]),
  );
  expect(res.body.items.find((i) => i.type === "auto.action.add_tag")).toMatchObject({
    category: "action",
    paramsSchema: { type: "object" },
  });
});
