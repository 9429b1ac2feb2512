import { DEMO_USERS, expect, signIn, signOut, test, type DemoRole, demoEmail } from "./helpers";

for (const role of ["admin", "editor", "viewer"] as const satisfies readonly DemoRole[]) {
  test(`${role} signs in, sees who they are in the shell, and signs out`, async ({ page }) => {
    await signIn(page, role, { form: true });
    await expect(page.getByRole("heading", { level: 1, name: "Automations" })).toBeVisible();
    await expect(page.getByTestId("signed-in-role")).toHaveText(DEMO_USERS[role].label);
    await expect(page.getByTestId("shop-name")).toHaveText("Demo Store");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Automations" }),
    ).toHaveAttribute("aria-current", "page");

    await signOut(page);
    await expect(page.getByRole("heading", { name: "Sign in to your shop" })).toBeVisible();
    // The session is really gone: the admin sends us back to sign-in.
    await page.goto("/orders");
    await page.waitForURL("**/sign-in");
  });
}

test("a wrong password is refused in plain words and keeps the email", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(DEMO_USERS.admin.email);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(DEMO_USERS.admin.email);
});

test("after 5 wrong passwords for one account the form says how long to wait", async ({ page }) => {
  // An account no other spec signs in with: its wait must not hold anyone else up.
  const email = demoEmail("locked-out");
  await page.goto("/sign-in");
  const tryOnce = async () => {
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  let fifthTried = 0;
  for (let i = 0; i < 5; i++) {
    if (i === 4) fifthTried = Date.now();
    await tryOnce();
    await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
    // The next alert must be the next attempt's, not this one still showing.
    await page.reload();
  }
  await tryOnce();
  const alert = page
    .getByRole("alert")
    .filter({ hasText: /^Too many failed sign-ins for this account\. Try again in \d+ seconds\.$/ });
  await expect(alert).toBeVisible();
  // The 30 seconds count from the fifth failure, no earlier than when it was tried.
  const wait = Number((await alert.textContent())?.match(/in (\d+) seconds/)?.[1]);
  const since = Math.ceil((Date.now() - fifthTried) / 1000);
  expect(wait).toBeLessThanOrEqual(30);
  expect(wait).toBeGreaterThanOrEqual(30 - since);
});

test("signed-in staff who open sign-in land on the Dashboard", async ({ page }) => {
  await signIn(page, "editor", { then: null, form: true });
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await page.goto("/sign-in");
  await page.waitForURL("**/dashboard");
  await page.goto("/");
  await page.waitForURL("**/dashboard");
});

test("the admin pages send anonymous visitors to sign-in", async ({ page }) => {
  for (const path of ["/", "/orders/ord_1001", "/settings/api-keys"]) {
    await page.goto(path);
    await page.waitForURL("**/sign-in");
  }
});

test("Forgot password? asks for the email and answers the same for any address", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL("**/forgot-password");
  await page.getByLabel("Email", { exact: true }).fill(demoEmail("nobody-here"));
  await page.getByRole("button", { name: "Email me a link" }).click();
  await expect(page.getByText(`If ${demoEmail("nobody-here")} has a Tillflow login`)).toBeVisible();
});
