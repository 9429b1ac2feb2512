import AxeBuilder from "@axe-core/playwright";
import { expect, signIn, startBlank, test } from "./helpers";

test.describe.configure({ mode: "serial" });

/*
 * Settings → Connections, as a merchant connects a Shopify store: the URL to paste, a signed test
 * delivery through that real URL, its result in the list, and the order it made. Named after
 * orders.spec.ts on purpose: specs share one shop in name order, and that one opens the first
 * order of the list, which the test delivery's order would otherwise be.
 */

test("an editor connects a Shopify store, sends a test delivery, sees it applied and opens the order", async ({
  page,
}) => {
  await signIn(page, "editor", { then: "/settings/connections" });
  const name = `e2e-${Date.now()}.myshopify.com`;
  await page.getByLabel("Platform").selectOption({ label: "Shopify" });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Webhook secret").fill("shpss_e2e_0123456789abcdef");
  await page.getByRole("button", { name: "Connect Shopify" }).click();

  await expect(page.getByText(`Connected “${name}”`)).toBeVisible();
  await expect(page.getByText(/\/api\/connect\/shopify\/[A-Za-z0-9_-]{20,}/).first()).toBeVisible();
  await expect(page.getByLabel("Webhook secret")).toHaveValue("");

  const card = page.locator("section").filter({ has: page.getByRole("heading", { name }) });
  await expect(card.getByText("Nothing delivered yet")).toBeVisible();
  // The secret is never shown again: its last 4 characters only.
  await expect(page.getByText("shpss_e2e_0123456789abcdef")).toHaveCount(0);
  await expect(card.getByText("…cdef")).toBeVisible();
  const url = (await card.getByText(/\/api\/connect\/shopify\//).textContent())!.trim();

  // A test: it starts no automation unless "Also run my automations" is ticked (unticked at first).
  await expect(card.getByLabel("Also run my automations")).not.toBeChecked();
  await card.getByRole("button", { name: `Send a test delivery to ${name}` }).click();
  await expect(card.getByText("Sent a test order; no automation runs on it.")).toBeVisible();
  const row = card.getByTestId("delivery-row").first();
  await expect(row).toContainText("orders/create");
  await expect(row).toContainText("Applied", { timeout: 15_000 });
  await expect(row).toContainText("Created the order");
  await expect(row).toContainText("Created its customer.");
  await expect(row).toContainText("A test delivery: no automation ran.");

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.screenshot({ path: "/tmp/sd-connection-1280.png" });

  // Ticked, the next one runs them.
  await card.getByLabel("Also run my automations").check();
  await card.getByRole("button", { name: `Send a test delivery to ${name}` }).click();
  await expect(card.getByText("Sent a test order; your automations run on it.")).toBeVisible();
  await expect(card.getByTestId("delivery-row").first()).toContainText(
    "A test delivery: automations ran as asked.",
    { timeout: 15_000 },
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  await card.screenshot({ path: "/tmp/sd-connection-1440.png" });

  await row.getByRole("link", { name: /^Order / }).click();
  await expect(page).toHaveURL(/\/orders\/\d+$/);
  // The order says it is a test.
  await expect(page.getByText(/^Test order from Tillflow: made by/)).toBeVisible();
  await expect(page.getByText("tillflow-test").first()).toBeVisible();
  const address = page.getByTestId("shipping-address");
  await expect(address).toContainText("Test Customer");
  await expect(address).toContainText("Berlin, Berlin 10119");
  await expect(address).toContainText("Germany (DE)");
  await expect(page.getByRole("list", { name: "Discount codes" })).toContainText("TEST10");
  const number = (await page.getByRole("heading", { name: /^Order #/ }).textContent())!.replace("Order ", "");

  // Its customer is a record: the order's customer link opens them.
  const orderUrl = page.url();
  await page.locator('a[href^="/customers/"]').first().click();
  await expect(page).toHaveURL(/\/customers\/\d+$/);
  await expect(page.getByText("test.customer@example.com").first()).toBeVisible();
  await expect(page.getByText("Customer not found")).toHaveCount(0);
  await page.goto(orderUrl);

  await page.goto(`/orders?q=${encodeURIComponent(number)}`);
  await expect(page.getByRole("row", { name: new RegExp(number) })).toContainText("Berlin, DE");

  // Disconnected, its URL stops answering and it leaves the list.
  await page.goto("/settings/connections");
  await card.getByRole("button", { name: `Disconnect ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Disconnect “${name}”?` });
  await dialog.getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByRole("heading", { name })).toHaveCount(0);
  const after = await page.request.post(new URL(url).pathname, { data: {} });
  expect(after.status()).toBe(404);
});

test("a viewer sees the connections page read-only", async ({ page }) => {
  await signIn(page, "viewer", { then: "/settings/connections" });
  await expect(page.getByText("Editors and admins connect and disconnect stores.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Connect/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Send a test delivery/ })).toHaveCount(0);
});

test("a flow is drawn on “shipping country is DE”, the field picker offering it and what the store sent", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  const id = await startBlank(page, "E2E ships to Germany");
  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order created" }).click();
  await palette.getByRole("button", { name: "Check a field" }).click();
  const config = page.getByRole("tabpanel");
  const field = config.getByLabel("Field");
  await field.selectOption({ label: "Shipping country code" });
  await expect(field).toHaveValue("shippingAddress.countryCode");
  await config.getByLabel("Operator").selectOption("eq");
  await config.getByLabel("Value").fill("DE");
  await expect(
    page.locator(".react-flow__node").filter({ hasText: "Shipping country code is 'DE'" }),
  ).toBeVisible();
  // The test delivery's note attribute is offered by name among what the shop's orders carry.
  const fromStore = field.locator('optgroup[label="From your store"] option', {
    hasText: 'Note attribute "gift_wrap"',
  });
  await expect(fromStore).toHaveText('Note attribute "gift_wrap" · text · e.g. yes');

  // The search box narrows the list; Enter picks the first match, by keyboard alone.
  const search = config.getByLabel("Search");
  await search.focus();
  // (Other specs' orders carry fields of their own, such as open-records' e2e_gift_note.)
  await page.keyboard.type("gift_wrap");
  await expect(config.getByText("1 match in the list below")).toBeVisible();
  await expect(field.locator("option", { hasText: "Shipping country code" })).toHaveCount(1); // the chosen one stays
  await expect(field.locator("option", { hasText: /^Total$/ })).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(field).toHaveValue("attributes.note_attributes[name=gift_wrap].value");
  await config.getByLabel("Value").fill("yes");
  await expect(
    page.locator(".react-flow__node").filter({ hasText: `Note attribute "gift_wrap" is 'yes'` }),
  ).toBeVisible();
  // Any line item's fields are offered too.
  await search.fill("any line item sku");
  await field.selectOption({ label: "Any line item › SKU" });
  await expect(field).toHaveValue("lineItems.*.sku");
  await search.fill("");
  await expect(field.locator("option", { hasText: /^Total$/ })).toHaveCount(1);
  await search.fill("gift");
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/sd-picker-${width}.png` });
  }
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Not published: put away, so later specs find the shop as it was.
  const archived = await page.request.delete(`/api/v1/automations/${id}`);
  expect(archived.ok(), await archived.text()).toBe(true);
});
