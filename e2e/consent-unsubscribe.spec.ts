import AxeBuilder from "@axe-core/playwright";
import crypto from "node:crypto";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

/**
 * Issue 51, items 1–2: an old Send email step has no purpose, so publishing asks; the merchant
 * marks it marketing, publishes, and a customer who accepts marketing gets it with an unsubscribe
 * link. In the outbox's preview the customer clicks it, the page has one button, and pressing it
 * unsubscribes them at once: their record says when and how. Pages checked with axe.
 */

const published: string[] = [];
putAwayAfterAll(published);

const suffix = crypto.randomBytes(3).toString("hex");
const customerId = `e2e-consent-${suffix}`;
const email = `zoe.${suffix}@example.com`;
const subject = `Our spring letter ${suffix}`;

//  customer_created ──▶ mail (send_email, no purpose yet)
const graph = {
  nodes: [
    { id: "t", type: "auto.trigger.customer_created", params: {} },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject, body: "Hello {entity.firstName}, new things are in." },
    },
  ],
  edges: [{ id: "e0", source: "t", target: "mail", sourceHandle: "out" }],
};

test("a merchant marks a step marketing; the customer unsubscribes from the email's link", async ({
  page,
  context,
}) => {
  // Many pages and a real run one after another: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000);
  await signIn(page, "editor");
  const created = await page.request.post("/api/v1/automations", {
    data: { name: `E2E newsletter ${suffix}`, graph },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  published.push(id);

  // The step has no purpose: a ready issue asks for one.
  await page.goto(`/automations/${id}`);
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByRole("tabpanel")).toContainText(
    "Choose whether this step is transactional or marketing",
  );
  await page.locator(".react-flow__node").filter({ hasText: subject }).click();
  await page.getByRole("tab", { name: "Step" }).click();
  const purpose = page.getByRole("tabpanel").getByLabel("Purpose");
  await purpose.selectOption("marketing");
  await expect(page.getByRole("tabpanel")).toContainText("it goes only to customers who accept marketing");
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "/tmp/consent-step-1280.png" });
  const publish = await page.request.post(`/api/v1/automations/${id}/publish`, { data: { note: "e2e" } });
  expect(publish.status(), await publish.text()).toBe(200);

  // A customer who accepts marketing: the email goes, with the link and the headers.
  const put = await page.request.put(`/api/v1/entities/customer/${customerId}`, {
    data: { email, name: "Zoe Park", firstName: "Zoe", acceptsMarketing: true },
  });
  expect(put.status(), await put.text()).toBe(201);
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/v1/outbox?kind=email&limit=50");
        const body = (await res.json()) as { items: { subject: string }[] };
        return body.items.some((e) => e.subject === subject);
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  await page.goto("/outbox");
  const item = page.getByTestId("outbox-email").filter({ hasText: subject });
  await item.locator("summary").click();
  await expect(item.getByRole("definition").first()).toContainText("/unsubscribe/");
  await expect(item).toContainText("List-Unsubscribe=One-Click");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "/tmp/consent-outbox-1440.png" });

  // The customer clicks "Unsubscribe" in the email: it opens as its own page.
  const preview = item.locator('iframe[title^="Preview of the email"]');
  await preview.scrollIntoViewIfNeeded();
  const frame = item.frameLocator('iframe[title^="Preview of the email"]');
  const [unsubscribePage] = await Promise.all([
    context.waitForEvent("page"),
    frame.getByRole("link", { name: "Unsubscribe" }).click(),
  ]);
  await unsubscribePage.waitForLoadState();
  await expect(unsubscribePage.getByRole("heading", { level: 1 })).toContainText("Unsubscribe from");
  await expect(unsubscribePage.getByRole("button")).toHaveCount(1);
  const axeAsk = await new AxeBuilder({ page: unsubscribePage }).analyze();
  expect(axeAsk.violations).toEqual([]);
  await unsubscribePage.screenshot({ path: "/tmp/consent-unsubscribe-page.png" });

  // Opening the page changed nothing; the button does.
  let consent = await page.request.get(`/api/v1/customers/${customerId}/consent`);
  expect(((await consent.json()) as { unsubscribedAt: string | null }).unsubscribedAt).toBeNull();
  await unsubscribePage.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(unsubscribePage.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
  const axeDone = await new AxeBuilder({ page: unsubscribePage }).analyze();
  expect(axeDone.violations).toEqual([]);
  consent = await page.request.get(`/api/v1/customers/${customerId}/consent`);
  expect(await consent.json()).toMatchObject({ acceptsMarketing: false, unsubscribedVia: "link" });

  // The record says when and how; an editor may subscribe them again, with a reason.
  await page.goto(`/customers/${customerId}`);
  const card = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Marketing consent" }) });
  await expect(card).toContainText("Unsubscribed: marketing steps skip this customer.");
  await expect(card).toContainText("With the unsubscribe link in a marketing email");
  await expect(card.getByRole("button", { name: "Subscribe to marketing again" })).toBeVisible();
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/consent-customer-${width}.png`, fullPage: true });
  }
  const axeCard = await new AxeBuilder({ page }).include("main").analyze();
  expect(axeCard.violations).toEqual([]);
});
