import type { Browser, Page } from "@playwright/test";
import { expect, signIn, signOut, test, DEMO_USERS } from "./helpers";

/** Invites `email` from the Users page and returns the link shown once. */
async function invite(
  page: Page,
  email: string,
  role: "admin" | "editor" | "viewer" = "viewer",
): Promise<string> {
  await page.goto("/settings/users");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${email}.` })).toBeVisible();
  return page.getByLabel("Invitation link").inputValue();
}

/** The invited person, in a browser of their own, sets their name and password on the link's page. */
async function accept(browser: Browser, link: string, name: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Choose a password").fill(password);
  await page.getByRole("button", { name: "Accept and sign in" }).click();
  await page.waitForURL("**/dashboard");
  return page;
}

test("an admin invites a user, who sets their own password and signs in with their role", async ({
  page,
  browser,
}) => {
  const email = `new-${Date.now()}@demo.test`;
  await signIn(page, "admin");
  const link = await invite(page, email, "editor");
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toBeVisible();

  const invited = await accept(browser, link, "Nia New", "nia's own password");
  await expect(invited.getByTestId("signed-in-role")).toHaveText("Editor");

  // The link works once.
  await invited.goto(link);
  await expect(invited.getByTestId("invitation-problem")).toContainText("already been used");

  await page.reload();
  const row = page.getByTestId("member-row").filter({ hasText: email });
  await expect(row.getByRole("combobox", { name: `Role of ${email}` })).toHaveValue("editor");
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toHaveCount(0);

  await signOut(page);
  await signIn(page, { email, password: "nia's own password" });
  await expect(page.getByTestId("signed-in-role")).toHaveText("Editor");
});

test("an admin re-sends and revokes an invitation; the revoked link says so", async ({ page }) => {
  const email = `pending-${Date.now()}@demo.test`;
  await signIn(page, "admin");
  const first = await invite(page, email);
  const row = page.getByTestId("invitation-row").filter({ hasText: email });
  await row.getByRole("button", { name: `Re-send the invitation to ${email}` }).click();
  const second = await row.getByLabel("Invitation link").inputValue();
  expect(second).not.toBe(first);

  await row.getByRole("button", { name: `Revoke the invitation to ${email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke invitation" }).click();
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toHaveCount(0);

  await page.goto(second);
  await expect(page.getByTestId("invitation-problem")).toContainText("withdrawn");
  await page.goto(first);
  await expect(page.getByTestId("invitation-problem")).toContainText("not valid");
});

test("an admin changes a member's role and removes them, but not themself", async ({ page, browser }) => {
  const email = `temp-${Date.now()}@demo.test`;
  await signIn(page, "admin");
  const link = await invite(page, email);
  const member = await accept(browser, link, "Temp", "temporary-pass");
  await page.reload();
  const row = page.getByTestId("member-row").filter({ hasText: email });
  await expect(row).toBeVisible();

  await row.getByRole("combobox", { name: `Role of ${email}` }).selectOption("admin");
  await row.getByRole("button", { name: `Save role of ${email}` }).click();
  await expect(row.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(row.getByRole("combobox", { name: `Role of ${email}` })).toHaveValue("admin");

  const self = page.getByTestId("member-row").filter({ hasText: DEMO_USERS.admin.email });
  await expect(self.getByRole("button", { name: /Remove/ })).toHaveCount(0);
  await expect(self.getByRole("combobox")).toHaveCount(0);

  await row.getByRole("button", { name: `Remove ${email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove user" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: email })).toHaveCount(0);

  // Their session ended with the membership.
  await member.goto("/automations");
  await member.waitForURL("**/sign-in");
});
