import { expect, signIn, test } from "./helpers";

test("the sidebar reaches every section and marks the current one", async ({ page }) => {
  await signIn(page, "admin");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [label, heading] of [
    ["Runs", "Runs"],
    ["Orders", "Orders"],
    ["Customers", "Customers"],
    ["Settings", "Settings"],
    ["Automations", "Automations"],
  ] as const) {
    await nav.getByRole("link", { name: label }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  }
});

// The automations empty state is checked in automations.spec.ts, which runs before drafts exist;
// the runs empty state in blank-shop.spec.ts, which runs before any spec publishes a flow.

test("settings opens on its first tab", async ({ page }) => {
  await signIn(page, "editor");
  await page.goto("/settings");
  await page.waitForURL("**/settings/shop");
  const tabs = page.getByRole("navigation", { name: "Settings" });
  await expect(tabs.getByRole("link", { name: "Shop" })).toHaveAttribute("aria-current", "page");
});

test("keyboard users can skip straight to the content", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/orders");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
