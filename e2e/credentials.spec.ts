import type { Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

/** Adds a credential on Settings → Credentials and returns its row. */
async function addCredential(
  page: Page,
  name: string,
  kind: string,
  value: string,
  hosts = "api.example.com",
) {
  await page.goto("/settings/credentials");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Kind").selectOption({ label: kind });
  await page.getByLabel("Value", { exact: true }).fill(value);
  await page.getByLabel("Allowed hosts").fill(hosts);
  await page.getByRole("button", { name: "Save credential" }).click();
  const row = page.getByTestId("credential-row").filter({ hasText: name });
  await expect(row).toBeVisible();
  return row;
}

test("an admin adds a credential with its hosts, never sees its value again, rotates it and deletes it", async ({
  page,
}) => {
  await signIn(page, "admin");
  const name = `E2E token ${Date.now()}`;
  const row = await addCredential(page, name, "Bearer token", "e2e-secret-token-4821");
  await expect(row).toContainText("Bearer token");
  await expect(row).toContainText("…4821");
  await expect(row.getByTestId("credential-hosts")).toHaveText("api.example.com");
  await expect(row).toContainText("Never");
  await expect(page.getByLabel("Value", { exact: true })).toHaveValue("");
  await page.reload();
  await expect(page.getByText("e2e-secret-token")).toHaveCount(0);

  await row.getByRole("button", { name: `Rotate ${name} (…4821)` }).click();
  const rotate = page.getByRole("dialog", { name: `Rotate “${name}” (…4821)?` });
  await rotate.getByLabel("New value").fill("e2e-rotated-token-7319");
  await rotate.getByRole("button", { name: "Rotate credential" }).click();
  await expect(rotate).toBeHidden();
  await expect(row).toContainText("…7319");
  await expect(row).not.toContainText("Never");

  await row.getByRole("button", { name: `Delete ${name} (…7319)` }).click();
  const remove = page.getByRole("dialog", { name: `Delete “${name}” (…7319)?` });
  await expect(remove).toContainText("No automation refers to it.");
  await remove.getByRole("button", { name: "Delete credential" }).click();
  await expect(page.getByTestId("credential-row").filter({ hasText: name })).toHaveCount(0);
});

test("an editor's HTTP step picks an admin's credential by name, kind and last 4 characters", async ({
  page,
}) => {
  await signIn(page, "admin");
  const name = `E2E warehouse ${Date.now()}`;
  await addCredential(page, name, "Bearer token", "warehouse-token-5150");
  await signIn(page, "editor");
  // Editors pick credentials; adding, rotating and deleting are for admins.
  await page.goto("/settings/credentials");
  await expect(page.getByRole("button", { name: "Save credential" })).toHaveCount(0);

  await page.goto("/automations/new");
  await startBlank(page);
  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Send HTTP request" }).click();
  const config = page.getByRole("tabpanel");
  const picker = config.getByLabel("Credential", { exact: true });
  await picker.selectOption({ label: `${name} (Bearer token, …5150)` });
  await expect(picker).toHaveValue(/^[0-9a-f-]{36}$/);
  // With the step's URL typed, a credential made from here proposes its host.
  await expect(config.getByRole("link", { name: "Manage credentials" })).toHaveAttribute(
    "href",
    /^\/settings\/credentials/,
  );
});
