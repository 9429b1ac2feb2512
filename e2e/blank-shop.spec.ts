import { expect, signIn, test } from "./helpers";

// Files run in name order: this one runs on the freshly seeded shop, before dashboard.spec.ts
// seeds run history and flow-editor.spec.ts and the others publish flows that start runs. (It was in shell.spec.ts, which now runs after
// them.) Keep every test here read-only.

test("runs explain themselves honestly while empty", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/runs");
  await expect(page.getByRole("heading", { name: "No runs yet" })).toBeVisible();
  for (const status of ["Waiting", "Cancelled"])
    await expect(page.getByRole("main").getByText(status, { exact: true })).toBeVisible();
});

test("the Waiting list, Outbox and Tasks say what will fill them", async ({ page }) => {
  await signIn(page, "viewer");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Waiting list" }).click();
  await expect(page.getByRole("heading", { name: "Nothing is waiting" })).toBeVisible();
  await expect(page.getByText("When a run reaches a Wait step")).toBeVisible();
  await nav.getByRole("link", { name: "Outbox" }).click();
  await expect(page.getByRole("heading", { name: "No emails yet" })).toBeVisible();
  await page.getByRole("link", { name: "HTTP deliveries" }).click();
  await expect(page.getByRole("heading", { name: "No HTTP deliveries yet" })).toBeVisible();
  await nav.getByRole("link", { name: "Tasks" }).click();
  await expect(page.getByRole("heading", { name: "No open tasks" })).toBeVisible();
});

test("the Approvals inbox says what will fill it, with no count while nothing waits", async ({ page }) => {
  await signIn(page, "viewer");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByTestId("pending-approvals-count")).toHaveCount(0);
  await nav.getByRole("link", { name: "Approvals" }).click();
  await expect(page.getByRole("heading", { name: "No approvals are waiting" })).toBeVisible();
  await expect(
    page.getByText("Add an Approval step to a flow to hold runs for a person's decision."),
  ).toBeVisible();
  await page.getByRole("link", { name: "All approvals" }).click();
  await expect(page.getByRole("heading", { name: "No approvals yet" })).toBeVisible();
});
