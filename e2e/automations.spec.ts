import { expect, signIn, test } from "./helpers";

// The viewer's test reads the draft the editor's test creates, so the tests run in order.
test.describe.configure({ mode: "serial" });

test("the demo shop comes with example automations; with them archived, the empty list teaches", async ({
  page,
}) => {
  // Runs first, on the freshly seeded shop, before the tests below create drafts.
  await signIn(page, "editor");
  const examples = page.getByTestId("automation-row").filter({ hasText: "Example: " });
  await expect(examples).toHaveCount(3);
  await expect(examples.filter({ hasText: "ask for a review 2 days after delivery" })).toContainText(
    "Active",
  );

  for (let left = 3; left > 0; left--) {
    await examples
      .first()
      .getByRole("button", { name: /^Archive / })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Archive automation" }).click();
    await expect(examples).toHaveCount(left - 1);
  }

  await expect(page.getByRole("heading", { name: "No automations yet" })).toBeVisible();
  await expect(page.getByText("You draw the flow on a canvas")).toBeVisible();
  await expect(page.getByRole("list", { name: "The parts of an automation, in order" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New automation" })).toHaveCount(1);
  await expect(page.getByRole("link", { name: "See archived automations" })).toBeVisible();
});

test("an editor creates a draft from the abandoned cart template, lands in the editor and finds it listed", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.getByRole("link", { name: "New automation" }).first().click();
  await expect(page).toHaveURL(/\/automations\/new$/);
  await expect(page.getByRole("heading", { level: 1, name: "New automation" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start blank" })).toBeVisible();

  await page.getByRole("button", { name: "Use this template: Abandoned cart reminder" }).click();
  await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Abandoned cart reminder" })).toBeVisible();
  await expect(page.locator(".react-flow__node").filter({ hasText: "Cart abandoned" })).toBeVisible();
  await expect(page.getByText("Ready to publish")).toBeVisible();

  await page.getByRole("link", { name: "Automations", exact: true }).first().click();

  const row = page.getByTestId("automation-row").filter({ hasText: "Abandoned cart reminder" }).first();
  await expect(row).toContainText("Draft");
  await expect(row).toContainText("Never published");
  await expect(row).toContainText("Cart abandoned");
  await expect(row).toContainText("No runs yet");
  // A draft has never been published, so there is nothing to pause or activate yet; it can be archived.
  await expect(row.getByRole("button", { name: /^(Pause|Activate)\b/ })).toHaveCount(0);
  await expect(row.getByRole("button")).toHaveAccessibleName("Archive Abandoned cart reminder");
});

test("a viewer reads the list but gets no buttons that change anything", async ({ page }) => {
  await signIn(page, "viewer");
  await expect(page.getByRole("table", { name: "Automations" })).toBeVisible();
  await expect(page.getByTestId("automation-row").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "New automation" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Pause|Activate)\b/ })).toHaveCount(0);

  await page.goto("/automations/new");
  await expect(
    page.getByRole("heading", { name: "Only editors and admins create automations" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /Use this template/ })).toHaveCount(0);
});

test("search and the status filter narrow the list", async ({ page }) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  await page.getByRole("button", { name: "Use this template: Tag VIP customers" }).click();
  await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/);
  await page.goto("/automations");

  await page.getByLabel("Search").fill("vip");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=vip/);
  const rows = page.getByTestId("automation-row");
  await expect(rows.first()).toContainText("Tag VIP customers");
  for (const text of await rows.allTextContents()) expect(text.toLowerCase()).toContain("vip");

  await page.getByLabel("Search").fill("no automation is called this");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "No automations match these filters" })).toBeVisible();

  await page.goto("/automations?status=active");
  await expect(page.getByLabel("Status")).toHaveValue("active");
  await expect(page.getByTestId("automation-row").filter({ hasText: "Tag VIP customers" })).toHaveCount(0);
});
