import { expect, signIn, signOut, test } from "./helpers";

test("an admin adds a user who can then sign in with their role", async ({ page }) => {
  const email = `new-${Date.now()}@demo.test`;
  const password = "a-first-password";

  await signIn(page, "admin");
  await page.goto("/settings/users");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel(/^Name/).fill("Nia New");
  await page.getByLabel("Role", { exact: true }).selectOption("editor");
  await page.getByLabel("First password").fill(password);
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} can now sign in` })).toBeVisible();
  const row = page.getByTestId("member-row").filter({ hasText: email });
  await expect(row.getByRole("combobox", { name: `Role of ${email}` })).toHaveValue("editor");

  await signOut(page);
  await signIn(page, { email, password });
  await expect(page.getByTestId("signed-in-role")).toHaveText("Editor");
});

test("an admin changes a member's role and removes them, but not themself", async ({ page }) => {
  const email = `temp-${Date.now()}@demo.test`;
  await signIn(page, "admin");
  await page.goto("/settings/users");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("First password").fill("temporary-pass");
  await page.getByRole("button", { name: "Add user" }).click();
  const row = page.getByTestId("member-row").filter({ hasText: email });
  await expect(row).toBeVisible();

  await row.getByRole("combobox", { name: `Role of ${email}` }).selectOption("admin");
  await row.getByRole("button", { name: `Save role of ${email}` }).click();
  await expect(row.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(row.getByRole("combobox", { name: `Role of ${email}` })).toHaveValue("admin");

  const self = page.getByTestId("member-row").filter({ hasText: "admin@demo.test" });
  await expect(self.getByRole("button", { name: /Remove/ })).toHaveCount(0);
  await expect(self.getByRole("combobox")).toHaveCount(0);

  await row.getByRole("button", { name: `Remove ${email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove user" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: email })).toHaveCount(0);
});
