import crypto from "node:crypto";
import http from "node:http";
import { eq } from "drizzle-orm";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { GET as auditRoute } from "@/app/api/v1/audit/route";
import { GET as outboxRoute } from "@/app/api/v1/outbox/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { rotateSigningSecretAction } from "@/lib/actions/settings/rotate-signing-secret";
import { showSigningSecretAction } from "@/lib/actions/settings/show-signing-secret";
import type { AuditItem } from "@/lib/audit/log";
import { auditSentence } from "@/lib/audit/words";
import { signingSecretOf, signingSecretStatus } from "@/lib/credentials/signing-secret";
import { getDb } from "@/lib/db/client";
import {
  actionDeliveries,
  automationRuns,
  automationRunSteps,
  tenants,
  type RunStatus,
} from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

// Server actions read the caller from the request headers; here they carry an API key.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
vi.mock("next/cache", () => ({ refresh: () => {}, revalidatePath: () => {} }));
const as = (key: string) => {
  request.headers = new Headers({ authorization: `Bearer ${key}` });
};

let shop: TestShop;
let other: TestShop;
let server: http.Server;
let base: string;

/** One request as the receiver saw it: the exact body text and the headers. */
interface Received {
  method: string;
  body: string;
  headers: Record<string, string>;
}
const received = new Map<string, Received[]>();
/** Per path, the statuses to answer in turn (the last one repeats). */
const script = new Map<string, number[]>();

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const seen = received.get(path) ?? [];
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      seen.push({ method: req.method ?? "", body: Buffer.concat(chunks).toString("utf8"), headers });
      received.set(path, seen);
      const answers = script.get(path) ?? [200];
      res.writeHead(answers[Math.min(seen.length - 1, answers.length - 1)]!);
      res.end("{}");
    });
  });
  base = await listenLocally(server);
});
afterAll(async () => {
  request.headers = new Headers();
  await closeServer(server);
});
workerForFile();

//  order_paid ──▶ call (http_request to <path>, retry 3 × 1 s) ──▶ mail (send_email)
async function callFlow(owner: TestShop, path: string, method: "POST" | "GET" = "POST") {
  return publishFlow(
    owner.keys.editor,
    `Call ${path}`,
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "call",
          type: "auto.action.http_request",
          params: {
            url: `${base}${path}`,
            method,
            headers: { "X-Shop": "{entity.number}" },
            // Not ASCII, so "the exact bytes sent" is put to the test.
            ...(method === "POST" ? { body: '{"order":"{entity.number}","note":"café ✓"}' } : {}),
            retry: { attempts: 3, backoff: "fixed", initialSeconds: 1 },
          },
        },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: {
            purpose: "transactional",
            to: "ops@shop.test",
            subject: "Called for {entity.number}",
            body: "Answered {steps.call.status} to {steps.call.idempotencyKey}",
          },
        },
      ],
      [
        ["t", "call"],
        ["call", "mail"],
      ],
    ),
  );
}

async function pay(owner: TestShop, id: string) {
  const order = { number: `#${id}`, status: "pending", total: 5, currency: "EUR" };
  await upsertEntity(owner.tenant.id, "order", id, order, "test");
  await upsertEntity(owner.tenant.id, "order", id, { ...order, status: "paid" }, "test");
}

/** The one run of the automation, once it has ended. */
async function endedRun(automationId: string): Promise<{ id: string; status: RunStatus }> {
  const runs = () =>
    getDb()
      .select({ id: automationRuns.id, status: automationRuns.status })
      .from(automationRuns)
      .where(eq(automationRuns.automationId, automationId));
  await expect
    .poll(async () => (await runs())[0]?.status, { timeout: 20_000, interval: 100 })
    .toSatisfy((s: RunStatus | undefined) => s === "succeeded" || s === "partial" || s === "failed");
  return (await runs())[0]!;
}

async function showSecret(owner: TestShop): Promise<string> {
  as(owner.keys.admin);
  const shown = await showSigningSecretAction({});
  if (!shown.ok) throw new Error(shown.error);
  return shown.data.secret;
}

const verifies = (secret: string, got: Received) => new Webhook(secret).verify(got.body, got.headers);

/** A secret of the same form that is not the shop's. */
const strangerSecret = () => `whsec_${crypto.randomBytes(32).toString("base64")}`;

/** Every secret this file has seen, to look for where none may appear. */
const secrets: string[] = [];

describe("HTTP action requests are signed with the shop's secret", () => {
  test("the receiver verifies one with the shop's secret; another secret or a changed body fails", async () => {
    expect(await signingSecretStatus(shop.tenant.id)).toEqual({
      lastFour: null,
      shown: false,
      unreadable: false,
    });
    const id = await callFlow(shop, "/orders");
    await pay(shop, "s-1");
    const run = await endedRun(id);
    expect(run.status).toBe("succeeded");
    const [got] = received.get("/orders")!;

    // The first request made the secret; the admin sees it once, and it is the one that signed.
    const status = await signingSecretStatus(shop.tenant.id);
    expect(status.shown).toBe(false);
    const secret = await showSecret(shop);
    secrets.push(secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(status.lastFour).toBe(secret.slice(-4));

    expect(got!.body).toBe('{"order":"#s-1","note":"café ✓"}');
    expect(verifies(secret, got!)).toEqual({ order: "#s-1", note: "café ✓" });
    expect(got!.headers["webhook-id"]).toBe(`${run.id}:call:1`);
    expect(got!.headers["webhook-id"]).toBe(got!.headers["idempotency-key"]);
    expect(Math.abs(Number(got!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    expect(got!.headers["x-shop"]).toBe("#s-1");

    expect(() => verifies(strangerSecret(), got!)).toThrow(WebhookVerificationError);
    expect(() => verifies(secret, { ...got!, body: got!.body.replace("s-1", "s-2") })).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      verifies(secret, { ...got!, headers: { ...got!.headers, "webhook-id": `${run.id}:call:2` } }),
    ).toThrow(WebhookVerificationError);
  });

  test("the secret is shown once: asking again is refused, and only admins may ask", async () => {
    as(shop.keys.admin);
    expect(await showSigningSecretAction({})).toMatchObject({
      ok: false,
      error: "The signing secret has already been shown. Rotate it to get a new one.",
    });
    for (const role of ["editor", "viewer"] as const) {
      as(other.keys[role]);
      expect(await showSigningSecretAction({})).toMatchObject({
        ok: false,
        error: "Only an admin can do this.",
      });
      expect(await rotateSigningSecretAction({})).toMatchObject({
        ok: false,
        error: "Only an admin can do this.",
      });
    }
    // Those refusals made nothing: the other shop still has no secret.
    expect((await signingSecretStatus(other.tenant.id)).lastFour).toBeNull();
  });

  test("made at once by many requests, a shop still gets one secret, shown to one of two admins asking together", async () => {
    const fresh = await createShop();
    const made = await Promise.all(Array.from({ length: 8 }, () => signingSecretOf(fresh.tenant.id)));
    expect(new Set(made).size).toBe(1);
    as(fresh.keys.admin);
    const answers = await Promise.all([showSigningSecretAction({}), showSigningSecretAction({})]);
    expect(answers.filter((a) => a.ok).map((a) => a.ok && a.data.secret)).toEqual([made[0]]);
    expect(answers.filter((a) => !a.ok)).toHaveLength(1);
  });

  test("each shop signs with its own secret", async () => {
    const id = await callFlow(other, "/other");
    await pay(other, "o-1");
    expect((await endedRun(id)).status).toBe("succeeded");
    const otherSecret = await showSecret(other);
    secrets.push(otherSecret);
    expect(otherSecret).not.toBe(secrets[0]);
    const [got] = received.get("/other")!;
    expect(verifies(otherSecret, got!)).toEqual({ order: "#o-1", note: "café ✓" });
    expect(() => verifies(secrets[0]!, got!)).toThrow(WebhookVerificationError);
  });

  test("a GET is signed over the empty body", async () => {
    const id = await callFlow(shop, "/lookup", "GET");
    await pay(shop, "g-1");
    expect((await endedRun(id)).status).toBe("succeeded");
    const [got] = received.get("/lookup")!;
    expect(got).toMatchObject({ method: "GET", body: "" });
    expect(verifies(secrets[0]!, got!)).toBeUndefined();
    expect(() => verifies(secrets[0]!, { ...got!, body: "{}" })).toThrow(WebhookVerificationError);
  });

  test("a retried delivery keeps its webhook-id, and every attempt verifies", async () => {
    script.set("/flaky", [503, 200]);
    const id = await callFlow(shop, "/flaky");
    await pay(shop, "r-1");
    const run = await endedRun(id);
    expect(run.status).toBe("succeeded");
    const attempts = received.get("/flaky")!;
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.headers["webhook-id"])).toEqual([`${run.id}:call:1`, `${run.id}:call:1`]);
    for (const attempt of attempts)
      expect(verifies(secrets[0]!, attempt)).toEqual({ order: "#r-1", note: "café ✓" });
  });

  test("after a rotation, requests verify with the new secret only; the rotation is audited", async () => {
    const old = secrets[0]!;
    as(shop.keys.admin);
    const rotated = await rotateSigningSecretAction({});
    if (!rotated.ok) throw new Error(rotated.error);
    const secret = rotated.data.secret;
    secrets.push(secret);
    expect(secret).not.toBe(old);
    expect(rotated.data.lastFour).toBe(secret.slice(-4));
    expect(await signingSecretStatus(shop.tenant.id)).toEqual({
      lastFour: secret.slice(-4),
      shown: true,
      unreadable: false,
    });
    // The worker reads the secret per request, so the very next one is signed with the new secret.
    expect(await signingSecretOf(shop.tenant.id)).toBe(secret);

    const id = await callFlow(shop, "/after-rotation");
    await pay(shop, "n-1");
    expect((await endedRun(id)).status).toBe("succeeded");
    const [got] = received.get("/after-rotation")!;
    expect(verifies(secret, got!)).toEqual({ order: "#n-1", note: "café ✓" });
    expect(() => verifies(old, got!)).toThrow(WebhookVerificationError);

    const audit = await call<{ items: AuditItem[] }>(auditRoute, {
      key: shop.keys.admin,
      path: "/api/v1/audit?action=shop",
    });
    expect(audit.status).toBe(200);
    const label = `API key ${shop.keys.admin.slice(0, 10)}…`;
    expect(audit.body.items.map((item) => auditSentence(item))).toEqual([
      `${label} rotated the signing secret (was ending in ${old.slice(-4)}); the new one ends in ${secret.slice(-4)}`,
      `${label} viewed the signing secret (ending in ${old.slice(-4)})`,
    ]);
  });

  test("a secret the server can no longer read fails the step with what to do, and a rotation mends it", async () => {
    const shop3 = await createShop();
    // What a changed TILLFLOW_SECRET_KEY leaves: a sealed value this key cannot open.
    await getDb()
      .update(tenants)
      .set({ signingSecret: "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA" })
      .where(eq(tenants.id, shop3.tenant.id));
    expect(await signingSecretStatus(shop3.tenant.id)).toEqual({
      lastFour: null,
      shown: false,
      unreadable: true,
    });
    const id = await callFlow(shop3, "/unreadable");
    await pay(shop3, "u-1");
    const run = await endedRun(id);
    expect(run.status).toBe("failed");
    expect(received.get("/unreadable")).toBeUndefined();
    const [step] = await getDb()
      .select({ error: automationRunSteps.error })
      .from(automationRunSteps)
      .where(eq(automationRunSteps.runId, run.id));
    expect(step!.error).toBe(
      "The request was not sent: The shop's signing secret cannot be read: TILLFLOW_SECRET_KEY is not the key it was stored with. An admin can rotate it in Settings → Shop.",
    );
    as(shop3.keys.admin);
    const rotated = await rotateSigningSecretAction({});
    if (!rotated.ok) throw new Error(rotated.error);
    secrets.push(rotated.data.secret);
    expect(await signingSecretOf(shop3.tenant.id)).toBe(rotated.data.secret);
  });

  test("no secret appears in the outbox, a run's steps, the audit log or the stored deliveries", async () => {
    expect(secrets).toHaveLength(4);
    const replies: unknown[] = [];
    for (const owner of [shop, other]) {
      for (const kind of ["email", "http"]) {
        const outbox = await call(outboxRoute, {
          key: owner.keys.viewer,
          path: `/api/v1/outbox?kind=${kind}`,
        });
        expect(outbox.status).toBe(200);
        replies.push(outbox.body);
      }
      const audit = await call(auditRoute, { key: owner.keys.admin, path: "/api/v1/audit" });
      expect(audit.status).toBe(200);
      replies.push(audit.body);
      const runs = await getDb()
        .select({ id: automationRuns.id })
        .from(automationRuns)
        .where(eq(automationRuns.tenantId, owner.tenant.id));
      for (const { id } of runs) {
        const run = await call(runRoute, {
          key: owner.keys.viewer,
          path: `/api/v1/runs/${id}`,
          params: { id },
        });
        expect(run.status).toBe(200);
        replies.push(run.body);
      }
    }
    replies.push(
      await getDb().select().from(actionDeliveries),
      await getDb().select().from(automationRunSteps),
    );
    const text = JSON.stringify(replies);
    // The replies are about these runs (so the search below looks where the secret could leak).
    expect(text).toContain("Answered 200 to");
    expect(text).toContain("café ✓");
    for (const secret of secrets) expect(text).not.toContain(secret.slice("whsec_".length, -1));
    // At rest it is sealed, not the secret itself.
    const stored = await getDb().select({ sealed: tenants.signingSecret }).from(tenants);
    for (const secret of secrets) expect(JSON.stringify(stored)).not.toContain(secret.slice(6, -1));
  });
});
