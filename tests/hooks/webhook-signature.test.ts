import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as hookRoute } from "@/app/api/hooks/[token]/route";
import { parseSignature, signWebhook } from "@/lib/automations/webhooks/signature";
import { getDb } from "@/lib/db/client";
import { automationRuns, webhookSignatures } from "@/lib/db/schema";
import { type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

const secret = "whsec-test-value";
let shop: TestShop;
let token: string;
let automationId: string;

beforeAll(async () => {
  shop = await createShop();
  token = crypto.randomBytes(18).toString("base64url");
  automationId = await publishFlow(
    shop.keys.editor,
    "Signed hook",
    flow(
      [
        { id: "in", type: "auto.trigger.webhook", params: { token, secret } },
        {
          id: "task",
          type: "auto.action.create_task",
          params: { title: "From {event.payload.body.source}" },
        },
      ],
      [["in", "task"]],
    ),
  );
});

async function deliver(body: string, signature?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== undefined) headers["x-tillflow-signature"] = signature;
  const res = await hookRoute(
    new Request(`http://test.local/api/hooks/${token}`, { method: "POST", body, headers }),
    { params: Promise.resolve({ token }) },
  );
  return { status: res.status, body: (await res.json()) as { runIds?: string[] } & Partial<ErrorReply> };
}

async function runCount() {
  return (await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, automationId)))
    .length;
}

const now = () => Math.floor(Date.now() / 1000);

describe("X-Tillflow-Signature", () => {
  test("a valid signature is accepted and starts a run", async () => {
    const body = JSON.stringify({ source: "erp" });
    const before = await runCount();
    const res = await deliver(body, signWebhook(secret, body));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.runIds).toHaveLength(1);
    expect(await runCount()).toBe(before + 1);
  });

  test("the same signature used twice is refused the second time", async () => {
    const body = JSON.stringify({ source: "replay" });
    const signature = signWebhook(secret, body);
    expect((await deliver(body, signature)).status).toBe(202);
    const before = await runCount();
    const again = await deliver(body, signature);
    expect(again.status).toBe(401);
    expect(again.body.error!.message).toBe(
      "This X-Tillflow-Signature was already used; sign each delivery afresh, with its own t.",
    );
    expect(await runCount()).toBe(before);
  });

  test("a timestamp outside 5 minutes either way is refused, even when correctly signed", async () => {
    const body = JSON.stringify({ source: "old" });
    const old = await deliver(body, signWebhook(secret, body, now() - 6 * 60));
    expect(old.status).toBe(401);
    expect(old.body.error!.message).toBe(
      "The X-Tillflow-Signature was made 6 minutes ago; a signature is accepted for 5 minutes. Sign each delivery when you send it.",
    );
    const future = await deliver(body, signWebhook(secret, body, now() + 10 * 60));
    expect(future.status).toBe(401);
    expect(future.body.error!.message).toMatch(/made 10 minutes ahead of our clock/);
    // Just inside the window is fine.
    expect((await deliver(body, signWebhook(secret, body, now() - 4 * 60))).status).toBe(202);
  });

  test("a bad, malformed or missing signature is refused and records nothing", async () => {
    const body = JSON.stringify({ source: "forged" });
    const before = await runCount();
    const wrongSecret = await deliver(body, signWebhook("not-the-secret", body));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error!.message).toBe(
      `The X-Tillflow-Signature does not match: sign "<t>.<raw body>" with the trigger's secret (HMAC-SHA256, hex).`,
    );
    // A signature of another body, or of this body with another t, does not match.
    const t = now();
    const otherBody = signWebhook(secret, "{}", t);
    expect((await deliver(body, otherBody)).status).toBe(401);
    const movedT = signWebhook(secret, body, t).replace(`t=${t}`, `t=${t + 1}`);
    expect((await deliver(body, movedT)).status).toBe(401);
    // The old body-only form is no longer accepted (SPEC §2 names only the timestamped one).
    const bodyOnly = `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
    const legacy = await deliver(body, bodyOnly);
    expect(legacy.status).toBe(401);
    expect(legacy.body.error!.message).toMatch(/not in the form t=<unix seconds>,v1=<64 hex digits>/);
    const missing = await deliver(body);
    expect(missing.status).toBe(401);
    expect(missing.body.error!.message).toMatch(
      /^This webhook is signed: send an X-Tillflow-Signature header/,
    );
    expect(await runCount()).toBe(before);
  });

  test("any of several v1 entries may match (a sender rotating its secret)", async () => {
    const body = JSON.stringify({ source: "rotating" });
    const t = now();
    const good = signWebhook(secret, body, t).split(",v1=")[1]!;
    const stale = signWebhook("previous-secret", body, t).split(",v1=")[1]!;
    expect((await deliver(body, `t=${t},v1=${stale},v1=${good}`)).status).toBe(202);
  });

  test("used signatures past the window are pruned as new ones arrive", async () => {
    await getDb()
      .insert(webhookSignatures)
      .values({ signature: "old:abc", expiresAt: new Date(Date.now() - 60_000) });
    const body = JSON.stringify({ source: "prune" });
    expect((await deliver(body, signWebhook(secret, body))).status).toBe(202);
    const left = await getDb().execute(sql`select 1 from webhook_signatures where signature = 'old:abc'`);
    expect(left).toHaveLength(0);
  });
});

test("parseSignature reads t and every v1, ignoring unknown schemes", () => {
  const hex = "a".repeat(64);
  expect(parseSignature(`t=12,v1=${hex},v0=zz`)).toEqual({ t: 12, v1: [hex] });
  expect(parseSignature(`v1=${hex}`)).toBeNull();
  expect(parseSignature("t=12,v1=nothex")).toBeNull();
});
