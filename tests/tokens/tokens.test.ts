import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { getDb } from "@/lib/db/client";
import { outboxEmails, tenants } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { workerForFile } from "@/tests/helpers/worker";

/**
 * An order flow's email reads the order's customer (`{entity.customer.…}`, loaded with the order)
 * and filters values (`| money`, `| date` in the shop's time zone) — the same in a real run, for a
 * batch of orders, and in a dry run.
 */

let shop: TestShop;

//  order_created ──▶ send_email(to {entity.email}, subject with the customer's name, body with money and date)
const graph = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: {
        purpose: "transactional",
        to: "{entity.email}",
        subject: "Thanks, {entity.customer.name}",
        body: "Dear {entity.customer.name},\nyour order {entity.number} of {entity.total | money} on {entity.createdAt | date}.",
      },
    },
  ],
  [["t", "mail"]],
);

const order = (number: string, customerId?: string) => ({
  number,
  status: "pending",
  total: 65,
  currency: "EUR",
  email: "ada@example.com",
  // 23:30 UTC on 30 November is already 1 December in Paris, the shop's time zone.
  createdAt: "2026-11-30T23:30:00Z",
  ...(customerId ? { customerId } : {}),
});

beforeAll(async () => {
  shop = await createShop();
  // Before any API call, so the caller each key resolves to carries the shop's zone.
  await getDb().update(tenants).set({ timezone: "Europe/Paris" }).where(eq(tenants.id, shop.tenant.id));
  await upsertEntity(
    shop.tenant.id,
    "customer",
    "c-ada",
    { email: "ada@example.com", name: "Ada & Co" },
    "test",
  );
});
workerForFile();

describe("tokens in an order flow's email", () => {
  test("a real run fills the customer's name, the money and the date, for every order of a batch", async () => {
    const id = await publishFlow(shop.keys.editor, "Thank you", graph);
    await Promise.all([
      upsertEntity(shop.tenant.id, "order", "o-1", order("#1001", "c-ada"), "test"),
      upsertEntity(shop.tenant.id, "order", "o-2", order("#1002"), "test"),
      upsertEntity(shop.tenant.id, "order", "o-3", order("#1003", "c-gone"), "test"),
    ]);
    const runs = await settledRuns(id, 3);
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);

    const emails = await getDb()
      .select({ subject: outboxEmails.subject, html: outboxEmails.bodyHtml })
      .from(outboxEmails)
      .where(
        inArray(
          outboxEmails.runId,
          runs.map((r) => r.id),
        ),
      );
    const byNumber = new Map(emails.map((e) => [/#\d+/.exec(e.html)?.[0], e]));
    expect(byNumber.get("#1001")).toEqual({
      subject: "Thanks, Ada & Co",
      // Values are escaped in the body; the template's line break is kept.
      html: "Dear Ada &amp; Co,<br>\nyour order #1001 of €65.00 on Dec 1, 2026.",
    });
    // An order without a customer, or whose customer is gone, reads an empty name.
    expect(byNumber.get("#1002")).toEqual({
      subject: "Thanks, ",
      html: "Dear ,<br>\nyour order #1002 of €65.00 on Dec 1, 2026.",
    });
    expect(byNumber.get("#1003")?.subject).toBe("Thanks, ");
  });

  test("a dry run renders the same email, and gives the editor the record its tokens read", async () => {
    const id = await publishFlow(shop.keys.editor, "Thank you (draft)", graph);
    const res = await call<DryRunResult>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: { entityId: "o-1" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mail = res.body.steps.find((s) => s.nodeId === "mail")!;
    expect(mail.outcome).toBe("would_run");
    expect(mail.email).toEqual({
      to: "ada@example.com",
      subject: "Thanks, Ada & Co",
      html: "Dear Ada &amp; Co,<br>\nyour order #1001 of €65.00 on Dec 1, 2026.",
    });
    expect(mail.detail).toEqual(["Would email ada@example.com: subject 'Thanks, Ada & Co'"]);
    expect(res.body.timeZone).toBe("Europe/Paris");
    expect(res.body.tokenRecord).toMatchObject({
      number: "#1001",
      customer: { id: "c-ada", name: "Ada & Co", email: "ada@example.com" },
    });
  });

  test("publishing refuses an unknown filter and a customer token outside {entity.…}", async () => {
    const bad = flow(
      [
        { id: "t", type: "auto.trigger.order_created" },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: {
            purpose: "transactional",
            to: "{entity.email}",
            subject: "{customer.name}",
            body: "{entity.total | foo}",
          },
        },
      ],
      [["t", "mail"]],
    );
    const res = await call<{ error: { issues: { message: string }[] } }>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: await publishFlow(shop.keys.editor, "Fine", graph) },
      body: { graph: bad },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.issues.map((i) => i.message)).toEqual([
      "Send email, subject: {customer.name} is not available here: use {entity.customer.name}, the customer of the order.",
      "Send email, body: Unknown filter 'foo' in {entity.total | foo}: use money, date, json, url or raw.",
    ]);
  });
});
