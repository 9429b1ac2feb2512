import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect as baseExpect, putAwayAfterAll, signIn, test, DEMO_USERS, literally } from "./helpers";

// A two-person approval with a team (issue 53), end to end: an admin makes a Finance team in
// Settings → Teams and draws a flow whose Approval asks one admin and one person from Finance;
// an order waits for both; the admin votes, then the editor (in Finance) votes from their own
// account, and the run goes on. The inbox and the run page show who voted and who is still needed.
test.describe.configure({ mode: "serial" });
// Other engineers build on this machine: a server round trip may take a while.
const expect = baseExpect.configure({ timeout: 30_000 });

const NAME = "E2E two people sign off";
const published: string[] = [];
putAwayAfterAll(published);

async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" · ")}`);
  expect(serious, `axe on ${where}`).toEqual([]);
}

async function payOrder(request: APIRequestContext, id: string): Promise<void> {
  const order = { number: `#${id}`, total: 1500, currency: "EUR", email: `${id}@example.com` };
  for (const status of ["pending", "paid"]) {
    const res = await request.put(`/api/v1/entities/order/${id}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
}

function approvalRow(page: Page): Locator {
  return page.getByTestId("approval-row").filter({ hasText: "Sign off refund #e2e_quorum_1" });
}

test("an admin makes a Finance team, asks one admin and one from Finance, and casts the first vote", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, "admin", { then: "/settings/teams" });
  await page.setViewportSize({ width: 1280, height: 900 });
  const add = page.getByRole("form", { name: "New team" });
  await add.getByLabel("Team name").fill("Finance");
  await add.getByRole("checkbox", { name: /Eddie Editor/ }).check();
  await add.getByRole("button", { name: "Add team" }).click();
  await expect(add.getByRole("status")).toHaveText("Added Finance.");
  await expect(page.getByRole("heading", { name: "Finance" })).toBeVisible();
  await expect(page.getByText("1 person: Eddie Editor.")).toBeVisible();
  await expectNoSeriousViolations(page, "Settings → Teams");
  await page.screenshot({ path: "/tmp/quorum-teams-1280.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "/tmp/quorum-teams-1440.png", fullPage: true });

  await page.goto("/automations/new");
  await page.getByRole("button", { name: "Start blank" }).click();
  await page.getByRole("dialog", { name: "Name your automation" }).getByLabel("Name").fill(NAME);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  published.push(page.url().split("/").pop()!);
  const palette = page.getByRole("complementary", { name: "Steps" });
  const config = page.getByRole("tabpanel");
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Approval", exact: true }).click();
  await config.getByLabel("What to decide").fill("Sign off refund {entity.number}");
  // Two lines: one admin, and one person from Finance.
  const who = config.locator('[data-param="approvers"]');
  await who.getByRole("button", { name: "Add a line" }).click();
  await who.getByRole("button", { name: "Add a line" }).click();
  await expect(who.getByTestId("approver-rule")).toHaveCount(2);
  await expect(who.getByLabel("Of").first()).toHaveValue("role:admin");
  const teamOption = who.getByLabel("Of").nth(1).locator("option", { hasText: "Team Finance (1 person)" });
  await who
    .getByLabel("Of")
    .nth(1)
    .selectOption((await teamOption.getAttribute("value"))!);
  await expect(who.getByLabel("How many").nth(1)).toHaveValue("1");
  await expect(who.getByLabel("Rejected when")).toHaveValue("any");
  await page.screenshot({ path: "/tmp/quorum-editor-1440.png" });
  await expectNoSeriousViolations(page, "the editor with the Approval's lines");
  await palette.getByRole("button", { name: "Add tag", exact: true }).click();
  await config.getByLabel("Tag").fill("signed-off");
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByText("Ready to publish")).toBeVisible();
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await page
    .getByRole("dialog", { name: /Publish version 1/ })
    .getByRole("button", { name: "Publish" })
    .click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();

  await payOrder(page.request, "e2e_quorum_1");
  await page.goto("/approvals");
  const row = approvalRow(page);
  await expect(row.getByTestId("approval-needed")).toHaveText("1 admin, and 1 from Finance still needed.", {
    timeout: 20_000,
  });
  await row.getByLabel("Note").fill("The refund matches the return");
  await row.getByRole("button", { name: "Approve: Sign off refund #e2e_quorum_1" }).click();
  await expect(row.getByTestId("approval-own-vote")).toHaveText(
    "You approved this; it waits for the others’ votes.",
  );
  await expect(row.getByTestId("approval-vote")).toHaveText(
    /^You approved just now: “The refund matches the return”$/,
  );
  await expect(row.getByTestId("approval-needed")).toHaveText("1 from Finance still needed.");
  await expect(row.getByTestId("approval-state")).toHaveText("Awaiting decision");
  await expectNoSeriousViolations(page, "the approvals inbox with a vote");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "/tmp/quorum-inbox-1280.png", fullPage: true });
});

test("the editor, in Finance, sees the admin's vote and casts the second: the run goes on", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "editor", { then: "/approvals" });
  const row = approvalRow(page);
  await expect(row.getByTestId("approval-vote")).toHaveText(
    new RegExp(`^${literally(DEMO_USERS.admin.email)} approved just now: “The refund matches the return”$`),
  );
  await expect(row.getByTestId("approval-needed")).toHaveText("1 from Finance still needed.");
  await row.getByRole("button", { name: "Approve: Sign off refund #e2e_quorum_1" }).click();
  await expect(row.getByTestId("approval-state")).toHaveText("Approved");
  await expect(row.getByTestId("approval-outcome")).toContainText(
    `Approved by ${DEMO_USERS.editor.email} just now`,
  );
  await expect(row.getByTestId("run-progress").getByTestId("run-status")).toHaveText("Succeeded", {
    timeout: 20_000,
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "/tmp/quorum-inbox-1440.png", fullPage: true });

  await row.getByRole("link", { name: /^Open run/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Succeeded");
  const step = page.getByTestId("approval-step");
  await expect(step).toContainText("Asks 1 admin and 1 from Finance.");
  await expect(step.getByTestId("approval-vote")).toHaveText([
    new RegExp(`^${literally(DEMO_USERS.admin.email)} approved .*: “The refund matches the return”$`),
    /^You approved /,
  ]);
  await expect(step).toContainText(`Approved by ${DEMO_USERS.editor.email}`);
  await expectNoSeriousViolations(page, "the run page with the votes");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "/tmp/quorum-run-1280.png", fullPage: true });
});
