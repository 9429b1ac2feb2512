import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext } from "@playwright/test";
import { startFakeStore, type FakeStore } from "../tests/helpers/fake-store";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

test.describe.configure({ mode: "serial" });

/*
 * Issue 52, as a merchant: connect a Shopify store with an Admin API token (a local stand-in for
 * Shopify on 127.0.0.1:3292, the STORE_API_BASE_URL playwright.config.ts gives the server), see
 * the webhooks Tillflow registered, build
 *
 *   order_paid ──▶ total > 500 ──true──▶ store_add_tags(vip)
 *
 * and read on the run page what was written in the store.
 */

const TOKEN = "shpat_e2e_0123456789abcdef0123";
let fake: FakeStore;
const published: string[] = [];
putAwayAfterAll(published);

test.beforeAll(async () => {
  fake = await startFakeStore({ token: TOKEN, port: 3292 });
});
test.afterAll(async () => {
  await fake.close();
});

async function payOrder(request: APIRequestContext, id: string, total: number): Promise<void> {
  const order = { number: `#${id}`, total, currency: "EUR", email: `${id}@example.com` };
  for (const status of ["pending", "paid"]) {
    const res = await request.put(`/api/v1/entities/order/${id}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
}

test("connect Shopify with a token, see its webhooks, tag paid orders over €500 'vip' in the store", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "editor", { then: "/settings/connections" });
  const name = `e2e-write-${Date.now()}`;
  await page.getByLabel("Platform").selectOption({ label: "Shopify" });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Webhook secret").fill("app_secret_e2e_0123456789");
  await page.getByLabel("Shop domain").fill("e2e-goods.myshopify.com");
  await page.getByLabel("Admin API access token").fill(TOKEN);
  await page.getByRole("button", { name: "Connect Shopify" }).click();

  await expect(page.getByText(/Tillflow subscribed to 16 topics in Shopify/)).toBeVisible();
  await expect(page.getByLabel("Admin API access token")).toHaveValue("");
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name }) });
  const subscriptions = card.getByTestId("subscription");
  await expect(subscriptions).toHaveCount(16);
  await expect(card.locator('[data-testid="subscription"][data-state="active"]')).toHaveCount(16);
  await expect(card.getByText("All 16 topics Tillflow reads deliver to this connection.")).toBeVisible();
  // Nothing to set up by hand: the empty delivery list says what comes next instead.
  await expect(card.getByText(/Tillflow made this store's webhooks: the next order/)).toBeVisible();
  await expect(card.getByText(/create a webhook \(format JSON\)/)).toHaveCount(0);
  await expect(card.getByTestId("connection-writes")).toContainText("sent only to e2e-goods.myshopify.com");
  await expect(page.getByText(TOKEN)).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await card.screenshot({ path: `/tmp/store-connection-${width}.png` });
  }

  // The flow, with the connection's write credential as its store.
  const listed = await page.request.get("/api/v1/connections");
  const connection = (
    (await listed.json()) as { items: { name: string; writes: { credentialId: string } }[] }
  ).items.find((c) => c.name === name)!;
  const graph = {
    nodes: [
      { id: "t", type: "auto.trigger.order_paid", position: { x: 0, y: 0 }, params: {} },
      {
        id: "big",
        type: "auto.condition.field",
        position: { x: 0, y: 140 },
        params: { path: "total", operator: "gt", value: 500 },
      },
      {
        id: "vip",
        type: "auto.action.store_add_tags",
        position: { x: 0, y: 280 },
        params: {
          credentialId: connection.writes.credentialId,
          platform: "shopify",
          target: "order",
          tags: "vip",
        },
      },
    ],
    edges: [
      { id: "e1", source: "t", target: "big", sourceHandle: "out" },
      { id: "e2", source: "big", target: "vip", sourceHandle: "true" },
    ],
  };
  const created = await page.request.post("/api/v1/automations", {
    data: { name: `VIP in Shopify ${name}`, graph },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  published.push(id);

  // The step on the canvas and its panel: the store picker names the connection's token.
  await page.goto(`/automations/${id}`);
  const node = page
    .locator(".react-flow__node")
    .filter({ hasText: "Add tags 'vip' to the order in Shopify" });
  await expect(node).toBeVisible();
  await node.click();
  const store = page.getByLabel("Store");
  await expect(store).toHaveValue(connection.writes.credentialId);
  await expect(store.locator("option:checked")).toContainText(`Shopify Admin API token · ${name}`);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/store-editor-${width}.png` });
  }
  const publish = await page.request.post(`/api/v1/automations/${id}/publish`, { data: { note: "e2e" } });
  expect(publish.status(), await publish.text()).toBe(200);

  const orderId = String(900_000 + (Date.now() % 100_000));
  await payOrder(page.request, orderId, 620);
  await expect.poll(() => fake.orders.get(orderId)?.tags.join(",") ?? "", { timeout: 15_000 }).toBe("vip");

  // The run page says what was written.
  let runId = "";
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/runs?automationId=${id}&limit=5`);
        const runs = ((await res.json()) as { items: { id: string; status: string }[] }).items;
        runId = runs[0]?.id ?? "";
        return runs[0]?.status ?? "";
      },
      { timeout: 15_000 },
    )
    .toBe("succeeded");
  await page.goto(`/runs/${runId}`);
  const step = page
    .locator("li, tr, section")
    .filter({ hasText: "Add tags 'vip' to the order in Shopify" })
    .last();
  await expect(step).toBeVisible();
  await expect(page.getByText(/"tags"|tags/).first()).toBeVisible();
  await expect(page.getByText(TOKEN)).toHaveCount(0);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/store-run-${width}.png`, fullPage: true });
  }
  const axeRun = await new AxeBuilder({ page }).analyze();
  expect(axeRun.violations.map((v) => v.id)).toEqual([]);
});

test("a store connected by hand takes an Admin API token later, and Tillflow makes its webhooks", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "editor", { then: "/settings/connections" });
  const name = `e2e-later-${Date.now()}`;
  await page.getByLabel("Platform").selectOption({ label: "Shopify" });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Webhook secret").fill("shop_secret_e2e_0123456789");
  await page.getByRole("button", { name: "Connect Shopify" }).click();
  await expect(page.getByText(`Connected “${name}”. Paste this URL into Shopify:`)).toBeVisible();

  const card = page.locator("section").filter({ has: page.getByRole("heading", { name }) });
  await expect(card.getByTestId("connection-writes")).toContainText(
    "No — this store only sends to Tillflow.",
  );
  await card.getByRole("button", { name: `Add an Admin API token for ${name}`, exact: true }).click();
  const form = card.getByRole("form", { name: `Admin API token of ${name}` });
  await form.getByLabel("Shop domain").fill("e2e-later.myshopify.com");
  await form.getByLabel("New Admin API access token").fill(TOKEN);
  await form.getByLabel(/App’s API secret key/).fill("app_secret_e2e_0123456789");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await card.screenshot({ path: `/tmp/store2-add-token-${width}.png` });
  }
  await form.getByRole("button", { name: "Save the Admin API token" }).click();

  await expect(
    card.getByText(/Saved the Admin API token\. Tillflow subscribed to 16 of 16 topics/),
  ).toBeVisible();
  await expect(card.getByTestId("connection-writes")).toContainText("sent only to e2e-later.myshopify.com");
  await expect(card.locator('[data-testid="subscription"][data-state="active"]')).toHaveCount(16);
  await expect(page.getByText(TOKEN)).toHaveCount(0);
  await expect(
    card.getByRole("button", { name: `Replace the Admin API token for ${name}`, exact: true }),
  ).toBeVisible();
  const axeAfter = await new AxeBuilder({ page }).analyze();
  expect(axeAfter.violations.map((v) => v.id)).toEqual([]);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await card.screenshot({ path: `/tmp/store2-token-added-${width}.png` });
  }
});
