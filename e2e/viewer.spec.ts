import { expect, signIn, test } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page, "viewer");
});

test("a viewer reads an order but gets no status control", async ({ page }) => {
  await page.goto("/orders/ord_1002");
  await expect(page.getByRole("heading", { level: 1, name: /^Order #1002$/ })).toBeVisible();
  await expect(page.getByTestId("order-status")).toBeVisible();
  await expect(page.getByLabel("Change status")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
});

test("a viewer sees API keys read-only, with the reason", async ({ page }) => {
  await page.goto("/settings/api-keys");
  await expect(page.getByText("Only an admin can create or revoke API keys")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
});

test("a viewer sees credentials listed without the controls", async ({ page }) => {
  await page.goto("/settings/credentials");
  await expect(page.getByText(/^Admins add, rotate and delete credentials/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Save credential" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Rotate|Delete) / })).toHaveCount(0);
});

test("a viewer is told that users are admin-only", async ({ page }) => {
  await page.goto("/settings/users");
  await expect(page.getByRole("heading", { name: "Only an admin can manage users." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(page.getByRole("table")).toHaveCount(0);
});
