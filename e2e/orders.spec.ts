import { expect, signIn, test } from "./helpers";

const LABELS: Record<string, string> = {
  pending: "Pending",
  paid: "Paid",
  fulfilled: "Fulfilled",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

test("an editor changes an order's status and sees it and its event", async ({ page }) => {
  await signIn(page, "editor");
  await page.goto("/orders/ord_1003");
  const select = page.getByLabel("Change status");
  const from = await select.inputValue();
  const to = from === "fulfilled" ? "paid" : "fulfilled";

  await select.selectOption(to);
  await page.getByRole("button", { name: "Save", exact: true }).click();

  await expect(
    page.getByRole("status").filter({ hasText: `Status changed to ${LABELS[to]}.` }),
  ).toBeVisible();
  await expect(page.getByTestId("order-status")).toContainText(LABELS[to]!);
  const changed = page.getByTestId("event").filter({ hasText: "order.status_changed" }).first();
  await expect(changed).toContainText(`From ${LABELS[from]} to ${LABELS[to]}`);
  // Saving the same status again is not offered: nothing would change.
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();

  // The list agrees after a fresh load.
  await page.goto("/orders?q=1003");
  await expect(page.getByRole("row", { name: /#1003/ })).toContainText(LABELS[to]!);
});

test("an editor corrects an order's email; a wrong address is refused in words; a viewer only reads it", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/orders/ord_1004");
  const email = page.getByLabel("Email", { exact: true });
  const before = await email.inputValue();
  await email.fill("not an address");
  await page.getByRole("button", { name: "Save email" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Enter an email address" })).toBeVisible();

  const corrected = `fixed.${Date.now()}@example.com`;
  await email.fill(corrected);
  await page.getByRole("button", { name: "Save email" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Email changed to ${corrected}.` })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(corrected);
  expect(corrected).not.toBe(before);

  await signIn(page, "viewer", { then: "/orders/ord_1004" });
  await expect(page.getByLabel("Email", { exact: true })).toHaveCount(0);
  await expect(page.getByText(corrected)).not.toHaveCount(0);
});

test("orders filter by status, search, and page with a cursor", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/orders");
  await expect(page.getByRole("table", { name: "Orders" })).toBeVisible();

  await page.getByLabel("Status").selectOption("cancelled");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=cancelled/);
  const statuses = page.getByRole("table", { name: "Orders" }).locator("tbody tr td:nth-child(2)");
  await expect(statuses.first()).toHaveText("Cancelled");
  for (const text of await statuses.allTextContents()) expect(text).toBe("Cancelled");

  await page.goto("/orders?q=1005");
  await expect(page.getByRole("link", { name: "#1005" })).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/orders$/);

  const firstPage = await page.locator("tbody tr td:first-child").allTextContents();
  const next = page.getByRole("link", { name: /Next page/ });
  if ((await next.count()) > 0) {
    await next.click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page.getByRole("link", { name: "First page" })).toBeVisible();
    const secondPage = await page.locator("tbody tr td:first-child").allTextContents();
    expect(secondPage.length).toBeGreaterThan(0);
    for (const number of secondPage) expect(firstPage).not.toContain(number);
  }
});

test("an order's page shows its line items, tags, and history", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/orders");
  await page.locator("tbody tr").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/orders\/ord_/);
  await expect(page.getByRole("table", { name: "Line items" })).toBeVisible();
  await expect(page.getByTestId("event").filter({ hasText: "order.created" })).toHaveCount(1);
  const updated = page.getByRole("heading", { name: "Details" });
  await expect(updated).toBeVisible();
  await expect(page.locator("time[datetime]").first()).toHaveAttribute("title", /\d{4}/);
});

test("an unknown order says it was not found", async ({ page, consoleGuard }) => {
  consoleGuard.ignore(/status of 404/);
  await signIn(page, "viewer");
  const response = await page.goto("/orders/ord_does_not_exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
});
