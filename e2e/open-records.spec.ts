import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

// SPEC §2 "Open records": an order sent with a shipping address, the store's statuses and
// whatever else it sent shows them on its page and in the Orders list, and the editor's field
// picker offers the new known fields and the paths the shop's orders carry under `attributes`.
test.describe.configure({ mode: "serial" });

const ID = `e2e_open_${Date.now()}`;
const NUMBER = `#E2E-OPEN-${Date.now() % 100_000}`;

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "heading-order")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("an order sent with a shipping address shows where it ships, its statuses and what else the store sent", async ({
  page,
}) => {
  await signIn(page, "editor");
  const put = await page.request.put(`/api/v1/entities/order/${ID}`, {
    data: {
      number: NUMBER,
      status: "paid",
      total: 80,
      currency: "EUR",
      email: "open.records@example.com",
      lineItems: [{ sku: "MUG-OPEN", title: "Open mug", quantity: 1, price: 80, vendor: "Potter & Co" }],
      shippingAddress: {
        name: "Ada Lovelace",
        city: "Berlin",
        zip: "10115",
        country: "Germany",
        countryCode: "DE",
      },
      discountCodes: ["WELCOME10"],
      financialStatus: "partially_refunded",
      fulfillmentStatus: "partial",
      sourceName: "web",
      attributes: {
        e2e_gift_note: "Happy birthday, Grace",
        note_attributes: [{ name: "Delivery window", value: "Mornings" }],
      },
    },
  });
  expect(put.status(), await put.text()).toBe(201);

  await page.goto(`/orders?q=${encodeURIComponent(NUMBER)}`);
  await expect(page.getByRole("columnheader", { name: "Ships to" })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(NUMBER) })).toContainText("Berlin, DE");

  await page.getByRole("link", { name: NUMBER }).click();
  await expect(page.getByRole("heading", { name: `Order ${NUMBER}` })).toBeVisible();
  const address = page.getByTestId("shipping-address");
  await expect(address).toContainText("Ada Lovelace");
  await expect(address).toContainText("Berlin, 10115");
  await expect(address).toContainText("Germany (DE)");
  const main = page.getByRole("main");
  await expect(main).toContainText("Partially refunded");
  await expect(main).toContainText("Partially fulfilled");
  await expect(main).toContainText("Online store");
  await expect(page.getByRole("list", { name: "Discount codes" })).toContainText("WELCOME10");
  await expect(main).toContainText("by Potter & Co");

  // What else the store sent, folded away until asked for, as words rather than JSON.
  const more = page.getByTestId("store-attributes");
  await expect(more.getByText("Happy birthday, Grace")).toBeHidden();
  await more.getByText("More from the store").click();
  await expect(more).toContainText("E2e gift note");
  await expect(more).toContainText("Happy birthday, Grace");
  await expect(more).toContainText("Delivery window: Mornings");
  expect(await seriousViolations(page)).toEqual([]);
});

test("the field picker offers Shipping country code and a path the shop's orders carry, by keyboard and by click", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  const id = await startBlank(page, "E2E open records picker");
  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order created" }).click();
  await palette.getByRole("button", { name: "Check a field" }).click();
  const config = page.getByRole("tabpanel");
  const field = config.getByLabel("Field");

  // By keyboard: typing a field's name in the focused select chooses it.
  await field.focus();
  await page.keyboard.type("Shipping country code");
  await expect(field).toHaveValue("shippingAddress.countryCode");
  await config.getByLabel("Operator").selectOption("eq");
  await config.getByLabel("Value").fill("DE");
  await expect(
    page.locator(".react-flow__node").filter({ hasText: "Shipping country code is 'DE'" }),
  ).toBeVisible();

  // From the store: the path the order above carries, with its type and an example.
  const store = field.locator('optgroup[label="From your store"] option', { hasText: "e2e_gift_note" });
  await expect(store).toHaveText("e2e_gift_note · text · e.g. Happy birthday, Grace");
  await field.selectOption({ label: "e2e_gift_note · text · e.g. Happy birthday, Grace" });
  await expect(field).toHaveValue("attributes.e2e_gift_note");
  await config.getByLabel("Operator").selectOption("contains");
  await config.getByLabel("Value").fill("birthday");
  await expect(
    page.locator(".react-flow__node").filter({ hasText: "e2e_gift_note from the store contains 'birthday'" }),
  ).toBeVisible();
  await expect(config.getByText(/is not a field/)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // Not published: put away, so later specs find the shop as it was.
  const archived = await page.request.delete(`/api/v1/automations/${id}`);
  expect(archived.ok(), await archived.text()).toBe(true);
});
