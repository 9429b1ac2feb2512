import { expect, signIn, test } from "./helpers";

test("an admin creates an API key, sees it once, uses it, and revokes it", async ({ page, request }) => {
  await signIn(page, "admin");
  await page.goto("/settings/api-keys");
  const name = `E2E key ${Date.now()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Role").selectOption("viewer");
  await page.getByRole("button", { name: "Create key" }).click();

  const panel = page.getByTestId("new-api-key");
  await expect(panel).toContainText("only time Tillflow shows it");
  const key = await panel.getByLabel("New API key").inputValue();
  expect(key).toMatch(/^tf_/);
  await expect(panel.getByRole("button", { name: "Copy key" })).toBeVisible();

  const row = page.getByTestId("api-key-row").filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 10));
  await expect(row).toContainText("Active");

  const url = "/api/v1/entities/order/ord_1001";
  const ok = await request.get(url, { headers: { Authorization: `Bearer ${key}` } });
  expect(ok.status()).toBe(200);
  expect(((await ok.json()) as { id: string }).id).toBe("ord_1001");

  // Shown once: a fresh load of the page has the prefix only, never the key.
  await page.reload();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await expect(page.getByText(key)).toHaveCount(0);

  await row.getByRole("button", { name: /^Revoke / }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke “${name}” (${key.slice(0, 10)}…)?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  const refused = await request.get(url, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});

test("cancelling the revoke dialog keeps the key", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings/api-keys");
  const name = `Kept key ${Date.now()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const row = page.getByTestId("api-key-row").filter({ hasText: name });
  await expect(row).toContainText("Active");

  await row.getByRole("button", { name: /^Revoke / }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(row).toContainText("Active");
});
