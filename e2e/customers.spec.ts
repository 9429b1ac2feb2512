import { expect, signIn, test } from "./helpers";

test("customers list and detail are readable by a viewer", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/customers");
  const table = page.getByRole("table", { name: "Customers" });
  await expect(table).toBeVisible();
  // A demo customer (other specs add customers of their own, which may sort first).
  const first = table.locator('tbody tr a[href^="/customers/cus_"]').first();
  const name = (await first.textContent()) ?? "";
  await first.click();
  await expect(page).toHaveURL(/\/customers\/cus_/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText(/^(Subscribed|Not subscribed)$/).first()).toBeVisible();
});

test("customer search narrows the list", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/customers");
  await page.getByLabel("Search").fill("cus_1");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=cus_1/);
  await expect(page.getByRole("table", { name: "Customers" }).locator("tbody tr").first()).toBeVisible();

  await page.goto("/customers?q=nobody-matches-this");
  await expect(page.getByRole("heading", { name: "No customers match this search" })).toBeVisible();
});

test("an unknown customer says it was not found", async ({ page, consoleGuard }) => {
  consoleGuard.ignore(/status of 404/);
  await signIn(page, "viewer");
  await page.goto("/customers/cus_nope");
  await expect(page.getByRole("heading", { name: "Customer not found" })).toBeVisible();
});
