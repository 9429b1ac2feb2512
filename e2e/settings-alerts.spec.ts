import AxeBuilder from "@axe-core/playwright";
import { expect, signIn, test } from "./helpers";

/*
 * Settings → Alerts, as an admin uses it: an alert added in plain words shows in the list, a test
 * alert goes out through the outbox (the worker sends it), and the history says it was sent, in the
 * shop's time. A viewer reads the list but gets no form. The file's name puts it after
 * blank-shop.spec.ts (whose outbox must still be empty), and its last test deletes the alert so
 * later specs' failed runs send no alert emails.
 */

test.describe.configure({ mode: "serial" });

test("an admin adds an alert, sends a test alert and finds it sent in the history", async ({ page }) => {
  await signIn(page, "admin", { then: "/settings/alerts" });
  await expect(
    page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Alerts" }),
  ).toHaveAttribute("aria-current", "page");
  const form = page.getByRole("form", { name: "Add alert" });
  await form.getByLabel("Alert me when").selectOption({ label: "Failed runs" });
  await form.getByLabel("Automation").selectOption({ label: "Every automation" });
  await form.getByLabel("Send to").selectOption({ label: "Email the shop's staff" });
  await form.getByRole("button", { name: "Add alert" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved:" })).toContainText(
    "about every automation",
  );
  const row = page.getByTestId("alert-row").filter({ hasText: "Failed runs" }).first();
  await expect(row).toContainText("Every automation");
  await expect(row).toContainText("Email to the shop's staff");
  await expect(row).toContainText("On");
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

  await row.getByRole("button", { name: /^Send a test alert/ }).click();
  await expect(page.getByText("Test alert queued")).toBeVisible();

  await page.getByRole("link", { name: "History" }).click();
  await page.waitForURL("**/settings/alerts/history");
  const sent = page.getByTestId("alert-history-row").first();
  await expect(async () => {
    await page.reload();
    await expect(sent).toContainText("Sent", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(sent).toContainText("This is a test of the 'Failed runs' alert");
  await expect(sent).toContainText("Email the shop's staff");
  // The time is the shop's, in words: no ISO instant on the page.
  await expect(sent.locator("time")).not.toHaveText(/\d{4}-\d\d-\d\dT/);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

  // Keyboard: the runs link is reachable and named.
  await expect(sent.getByRole("link", { name: /See the runs/ })).toBeVisible();

  // The outbox says where the alert's email came from (it has no run).
  await page.goto("/outbox");
  const email = page
    .getByTestId("outbox-email")
    .filter({ hasText: /Alert: / })
    .first();
  await email.locator("summary").click();
  await expect(email).toContainText("Sent by an alert rule in Settings → Alerts");
  await expect(email.getByRole("link", { name: "Settings → Alerts" })).toHaveAttribute(
    "href",
    "/settings/alerts",
  );
  await expect(email).not.toContainText("purged");
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/outbox-alert-${width}.png` });
  }
});

test("a viewer reads the alerts but cannot change them", async ({ page }) => {
  await signIn(page, "viewer", { then: "/settings/alerts" });
  await expect(page.getByText("Admins add and change alerts.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Add alert" })).toHaveCount(0);
  await expect(page.getByTestId("alert-row").first()).toContainText("Failed runs");
  await expect(page.getByRole("button", { name: /Send a test alert/ })).toHaveCount(0);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
});

test("an admin deletes the alert; it stops alerting and its history stays", async ({ page }) => {
  await signIn(page, "admin", { then: "/settings/alerts" });
  const row = page.getByTestId("alert-row").filter({ hasText: "Failed runs" }).first();
  await row.getByRole("button", { name: /^Delete the alert/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete alert" }).click();
  await expect(page.getByTestId("alert-row").filter({ hasText: "Failed runs" })).toHaveCount(0);
  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByTestId("alert-history-row").first()).toContainText(
    "This is a test of the 'Failed runs' alert",
  );
});
