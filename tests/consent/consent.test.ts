import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as unsubscribeGet, POST as unsubscribePost } from "@/app/unsubscribe/[token]/route";
import { GET as runRoute } from "@/app/api/v1/runs/[id]/route";
import { getDb } from "@/lib/db/client";
import { customerConsent, outboxEmails } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { unsubscribeToken } from "@/lib/consent/token";
import { consentOfCustomer, resubscribe } from "@/lib/consent/store";
import type { RunDetail } from "@/lib/automations/runs/detail";
import { call } from "@/tests/helpers/fixtures";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { connectStore, deliver, processedDelivery } from "@/tests/helpers/stores";
import { workerForFile } from "@/tests/helpers/worker";

/*
 * Issue 51, items 1–2: a marketing step skips a customer without consent and says why; a
 * transactional one goes; the unsubscribe link works once, for its own shop's customer only, and a
 * GET changes nothing; a store's `accepts_marketing: false` unsubscribes. Real worker, real Postgres.
 */

let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  shop = await createShop();
  other = await createShop();
  // Quiet hours (issue 51 item 3, tests/messaging/) are on by default: off here, so these sends
  // do not depend on the hour the suite runs at.
  for (const s of [shop, other])
    await getDb().execute(
      sql`update tenants set messaging = '{"quietHours": null, "cap": null}' where id = ${s.tenant.id}`,
    );
});
workerForFile();

const customers = {
  mia: { email: "mia@example.com", name: "Mia Wong", firstName: "Mia", acceptsMarketing: false },
  leo: { email: "leo@example.com", name: "Leo Brandt", firstName: "Leo", acceptsMarketing: true },
  ivy: { email: "ivy@example.com", name: "Ivy Chen", firstName: "Ivy", acceptsMarketing: true },
};

//  customer_created ──▶ mail (send_email, <purpose>) ──▶ tag (add_tag "after")
const emailFlow = (purpose?: "marketing" | "transactional") =>
  flow(
    [
      { id: "t", type: "auto.trigger.customer_created" },
      {
        id: "mail",
        type: "auto.action.send_email",
        params: {
          to: "{entity.email}",
          subject: "Hello {entity.firstName}",
          body: "Our news.",
          ...(purpose ? { purpose } : {}),
        },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "after" } },
    ],
    [
      ["t", "mail"],
      ["mail", "tag"],
    ],
  );

async function runOf(automationId: string, customerId: string) {
  const [run] = await getDb().execute<{ id: string }>(
    sql`select id from automation_runs where automation_id = ${automationId} and entity_id = ${customerId}`,
  );
  const detail = await call<RunDetail>(runRoute, { key: shop.keys.viewer, params: { id: run!.id } });
  expect(detail.status).toBe(200);
  return detail.body;
}

const emailsTo = (tenantId: string, to: string) =>
  getDb()
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.tenantId, tenantId), eq(outboxEmails.to, to)));

function page(method: "GET" | "POST", token: string, body?: string) {
  const req = new Request(`http://test.local/unsubscribe/${encodeURIComponent(token)}`, {
    method,
    headers: method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {},
    body: method === "POST" ? body : undefined,
  });
  const handler = method === "GET" ? unsubscribeGet : unsubscribePost;
  return handler(req, { params: Promise.resolve({ token }) });
}

describe("a marketing step asks for consent; a transactional one does not", () => {
  let marketing: string;
  let transactional: string;

  beforeAll(async () => {
    marketing = await publishFlow(shop.keys.editor, "Newsletter", emailFlow("marketing"));
    transactional = await publishFlow(shop.keys.editor, "Account notice", emailFlow("transactional"));
    for (const [id, data] of Object.entries(customers))
      await upsertEntity(shop.tenant.id, "customer", id, data, "test");
    await settledRuns(marketing, 3);
    await settledRuns(transactional, 3);
  });

  test("a customer who does not accept marketing is skipped with a sentence, and the run goes on", async () => {
    const run = await runOf(marketing, "mia");
    expect(run.status).toBe("succeeded");
    const mail = run.steps.find((s) => s.nodeId === "mail")!;
    expect(mail.status).toBe("skipped");
    expect(mail.reason).toBe("Skipped: Mia does not accept marketing emails");
    expect(run.steps.find((s) => s.nodeId === "tag")!.status).toBe("success");
    const sent = await emailsTo(shop.tenant.id, "mia@example.com");
    // Only the transactional one.
    expect(sent.map((e) => e.nodeId)).toEqual(["mail"]);
    expect(sent[0]!.headers).toEqual({});
  });

  test("a consenting customer's marketing email carries the unsubscribe link and headers", async () => {
    const run = await runOf(marketing, "leo");
    expect(run.steps.find((s) => s.nodeId === "mail")!.status).toBe("success");
    const sent = await emailsTo(shop.tenant.id, "leo@example.com");
    const withLink = sent.filter((e) => Object.keys(e.headers).length > 0);
    expect(withLink).toHaveLength(1);
    const url = withLink[0]!.headers["List-Unsubscribe"]!.slice(1, -1);
    expect(url).toMatch(/\/unsubscribe\/[^/]+$/);
    expect(withLink[0]!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(withLink[0]!.bodyHtml).toContain(`href="${url}"`);
    expect(url.endsWith(unsubscribeToken(shop.tenant.id, "leo"))).toBe(true);
  });

  test("an unsubscribed customer is skipped as unsubscribed; transactional email still goes", async () => {
    const token = unsubscribeToken(shop.tenant.id, "ivy");
    expect((await page("POST", token, "List-Unsubscribe=One-Click")).status).toBe(200);
    // A second customer event for Ivy: a new run of each flow.
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "ivy-2",
      { ...customers.ivy, email: "ivy@example.com" },
      "test",
    );
    await settledRuns(marketing, 4);
    await settledRuns(transactional, 4);
    const run = await runOf(marketing, "ivy-2");
    const mail = run.steps.find((s) => s.nodeId === "mail")!;
    expect(mail.status).toBe("skipped");
    expect(mail.reason).toBe(
      "Skipped: Ivy unsubscribed from marketing emails with the email's unsubscribe link",
    );
    const notice = await runOf(transactional, "ivy-2");
    expect(notice.steps.find((s) => s.nodeId === "mail")!.status).toBe("success");
  });
});

describe("a step saved before purposes", () => {
  test("sends as before, and its next publish asks for a purpose", async () => {
    const { POST: publishRoute } = await import("@/app/api/v1/automations/[id]/publish/route");
    const id = await publishFlow(shop.keys.editor, "Old flow", emailFlow("marketing"));
    // As stored before purposes: no purpose in the draft, the live graph or its version.
    const strip = sql`#- '{nodes,1,params,purpose}'`;
    await getDb().execute(
      sql`update automations set active_graph = active_graph ${strip}, draft_graph = draft_graph ${strip} where id = ${id}`,
    );
    await getDb().execute(
      sql`update automation_versions set graph = graph ${strip} where automation_id = ${id}`,
    );
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "mia-old",
      { ...customers.mia, email: "mia.old@example.com" },
      "test",
    );
    await settledRuns(id, 1);
    // Mia does not accept marketing, but the old step does not know it is marketing: it sends (the
    // other is the transactional notice).
    expect(await emailsTo(shop.tenant.id, "mia.old@example.com")).toHaveLength(2);
    const published = await call<{ error: { message: string } }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
    });
    expect(published.status).toBe(422);
    expect(published.body.error.message).toContain("Choose whether this step is transactional or marketing");
  });
});

describe("the unsubscribe link", () => {
  beforeAll(async () => {
    await upsertEntity(
      shop.tenant.id,
      "customer",
      "noa",
      { email: "noa@example.com", firstName: "Noa", acceptsMarketing: true },
      "test",
    );
    // The other shop has a customer with the same id.
    await upsertEntity(
      other.tenant.id,
      "customer",
      "noa",
      { email: "noa@example.com", firstName: "Noa", acceptsMarketing: true },
      "test",
    );
  });

  test("a GET shows one button and changes nothing", async () => {
    const res = await page("GET", unsubscribeToken(shop.tenant.id, "noa"));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/<button/g)).toHaveLength(1);
    expect(html).toContain('<form method="post">');
    const consent = await consentOfCustomer(getDb(), shop.tenant.id, "noa");
    expect(consent).toMatchObject({ acceptsMarketing: true, unsubscribedAt: null });
  });

  test("a POST unsubscribes at once, once; the other shop's customer is untouched", async () => {
    const token = unsubscribeToken(shop.tenant.id, "noa");
    expect((await page("POST", token, "List-Unsubscribe=One-Click")).status).toBe(200);
    const first = await consentOfCustomer(getDb(), shop.tenant.id, "noa");
    expect(first).toMatchObject({ acceptsMarketing: false, unsubscribedVia: "link" });
    expect(first!.unsubscribedAt).toBeInstanceOf(Date);
    // Again: still 200 (a mail client may retry), nothing changes.
    expect((await page("POST", token, "List-Unsubscribe=One-Click")).status).toBe(200);
    const again = await consentOfCustomer(getDb(), shop.tenant.id, "noa");
    expect(again!.unsubscribedAt!.getTime()).toBe(first!.unsubscribedAt!.getTime());
    expect(await consentOfCustomer(getDb(), other.tenant.id, "noa")).toMatchObject({
      acceptsMarketing: true,
      unsubscribedAt: null,
    });
  });

  test("a forged, garbled or other-shop token is a 404, never a 500", async () => {
    const good = unsubscribeToken(shop.tenant.id, "noa");
    const [, customer, mac] = good.split(".");
    const tries = [
      `${other.tenant.id}.${customer}.${mac}`, // the other shop's id on this shop's signature
      `${shop.tenant.id}.${Buffer.from("leo").toString("base64url")}.${mac}`, // another customer
      `${good.slice(0, -2)}AA`,
      "x",
      "",
      "...",
      `${shop.tenant.id}.%%%.${mac}`,
      "a".repeat(5000),
      `${crypto.randomUUID()}.${customer}.${mac}`,
      unsubscribeToken(shop.tenant.id, "nobody-here"), // signed, but no such customer
    ];
    for (const token of tries) {
      for (const method of ["GET", "POST"] as const) {
        const res = await page(method, token, "List-Unsubscribe=One-Click");
        expect(res.status, `${method} ${token.slice(0, 60)}`).toBe(404);
      }
    }
    expect(await consentOfCustomer(getDb(), other.tenant.id, "noa")).toMatchObject({ unsubscribedAt: null });
    expect(await consentOfCustomer(getDb(), shop.tenant.id, "leo")).toMatchObject({ unsubscribedAt: null });
  });

  test("re-subscribing is the shop's action, with a reason, audited", async () => {
    const viewer = await callerOf(shop, "viewer");
    await expect(resubscribe(viewer, "noa", { reason: "Asked at the counter" })).rejects.toMatchObject({
      status: 403,
    });
    const editor = await callerOf(shop, "editor");
    await expect(resubscribe(editor, "noa", {})).rejects.toMatchObject({ status: 422 });
    const view = await resubscribe(editor, "noa", { reason: "Asked at the counter" });
    expect(view).toMatchObject({
      acceptsMarketing: true,
      unsubscribedAt: null,
      resubscribeReason: "Asked at the counter",
    });
    const [audit] = await getDb().execute<{ action: string; detail: { reason: string } }>(
      sql`select action, detail from audit_events where tenant_id = ${shop.tenant.id} and subject_id = 'noa'`,
    );
    expect(audit).toMatchObject({
      action: "customer.resubscribed",
      detail: { reason: "Asked at the counter" },
    });
  });
});

describe("a connected store's word", () => {
  test("a Shopify customer with accepts_marketing false (or consent unsubscribed) is unsubscribed", async () => {
    const shopify = await connectStore(shop.keys.editor, "shopify");
    const send = async (id: number, extra: Record<string, unknown>) => {
      const reply = await deliver("shopify", shopify, {
        topic: "customers/update",
        body: {
          id,
          email: `c${id}@example.com`,
          first_name: "Sam",
          updated_at: new Date().toISOString(),
          ...extra,
        },
        deliveryId: crypto.randomUUID(),
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const processed = await processedDelivery(shop.keys.viewer, shopify, reply.body.id!);
      expect(processed.result, processed.reason).toBe("applied");
    };
    await send(7001, { accepts_marketing: false });
    await send(7002, { email_marketing_consent: { state: "unsubscribed" } });
    await send(7003, { email_marketing_consent: { state: "subscribed" } });
    const rows = await getDb()
      .select()
      .from(customerConsent)
      .where(eq(customerConsent.tenantId, shop.tenant.id));
    const via = Object.fromEntries(rows.map((r) => [r.customerId, r.unsubscribedVia]));
    expect(via["7001"]).toBe("store");
    expect(via["7002"]).toBe("store");
    expect(via["7003"]).toBeUndefined();
  });
});
