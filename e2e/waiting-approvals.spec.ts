import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, signIn, startBlank, test, DEMO_USERS, literally } from "./helpers";

// Approvals, end to end: the flow is drawn in the editor in the first test and every test after it
// pays an order over 1,000 through the API, which that flow holds for a decision.
//
// Named to run late (files run in name order): its flow, runs and emails would break the empty
// states that automations.spec.ts and blank-shop.spec.ts check on the freshly seeded shop.
test.describe.configure({ mode: "serial" });

//  Order paid ──▶ total > 1000 ──true──▶ Approval "Review order {entity.number}" (72 h)
//                                          ├─approved──▶ Add tag 'reviewed'
//                                          └─rejected──▶ Add note 'Rejected in review'
const NAME = "E2E hold big orders for review";

function canvasNode(page: Page, text: string | RegExp): Locator {
  return page.locator(".react-flow__node").filter({ hasText: text });
}

/** An order over 1,000, created pending and then paid: the status change fires order.paid. */
async function payOrder(request: APIRequestContext, id: string, total = 1250): Promise<void> {
  const order = { number: `#${id}`, total, currency: "EUR", email: `${id}@example.com` };
  for (const status of ["pending", "paid"]) {
    const res = await request.put(`/api/v1/entities/order/${id}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
}

/** The wait id of the pending approval about `entityId`, once the worker has run the first leg. */
async function pendingApproval(request: APIRequestContext, entityId: string): Promise<string> {
  let waitId = "";
  await expect
    .poll(
      async () => {
        const res = await request.get("/api/v1/approvals?status=pending&limit=200");
        const body = (await res.json()) as { items: { waitId: string; entity: { id: string } | null }[] };
        waitId = body.items.find((item) => item.entity?.id === entityId)?.waitId ?? "";
        return waitId;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return waitId;
}

async function tagsOf(request: APIRequestContext, id: string): Promise<string[]> {
  const res = await request.get(`/api/v1/entities/order/${id}`);
  return ((await res.json()) as { tags: string[] }).tags;
}

/** Opens the newest run of the flow for `entityId`. */
async function openRun(page: Page, entityId: string): Promise<void> {
  await page.goto(`/runs?automationId=${automationId}&domain=order&entityId=${entityId}`);
  const row = page.getByTestId("run-row").first();
  await expect(row).toBeVisible();
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
}

let automationId = "";
let firstWaitId = "";

test("an editor draws the flow, an order over 1,000 waits in the inbox, and approving it runs on live to Succeeded", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "editor");
  await page.goto("/automations/new");
  await startBlank(page);
  automationId = page.url().split("/").pop()!;
  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByLabel("Name").fill(NAME);

  const palette = page.getByRole("complementary", { name: "Steps" });
  const config = page.getByRole("tabpanel");
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Check a field" }).click();
  await config.getByLabel("Field").selectOption("total");
  await config.getByLabel("Operator").selectOption("gt");
  await config.getByLabel("Value").fill("1000");

  // With the condition selected, the approval hangs from its 'true' exit.
  await palette.getByRole("button", { name: "Approval", exact: true }).click();
  await config.getByLabel("What to decide").fill("Review order {entity.number}");
  await expect(config.getByLabel("Time out after (hours)")).toHaveValue("72");
  await expect(config.getByLabel("Who decides")).toHaveValue("editor");
  // The canvas describes the token in words until a run fills it in.
  await expect(canvasNode(page, "Review order [the order's number] · 72 h")).toBeVisible();

  // The approval selected, the next step takes its first free exit: 'approved'.
  await palette.getByRole("button", { name: "Add tag", exact: true }).click();
  await config.getByLabel("Tag").fill("reviewed");
  // The note goes on the 'rejected' exit, through its "+".
  // The palette says where the next step goes before it is picked. On a busy machine the canvas
  // can redraw the node (its tag just typed) under the click; a person would click again.
  const rejectedPlus = page.getByRole("button", {
    name: /^Add a step after 'Approval: Review order .*' \(Rejected\)$/,
  });
  await expect(async () => {
    await rejectedPlus.click();
    await expect(palette).toContainText(/Adds after 'Approval: Review order .*' \(Rejected\)/, {
      timeout: 2_000,
    });
  }).toPass();
  await palette.getByRole("button", { name: "Add note" }).click();
  await config.getByLabel("Body").fill("Rejected in review");
  await expect(page.locator(".react-flow__edge")).toHaveCount(4);

  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByText("Ready to publish")).toBeVisible();
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await page
    .getByRole("dialog", { name: /Publish version 1/ })
    .getByRole("button", { name: "Publish" })
    .click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();

  // Fired through the API: the run stops at the approval, and approvers see the count.
  await payOrder(page.request, "e2e_big_1");
  firstWaitId = await pendingApproval(page.request, "e2e_big_1");
  await page.goto("/automations");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByTestId("pending-approvals-count")).toHaveText(/^,?\s*1\s*waiting$/);
  await nav.getByRole("link", { name: /^Approvals/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible();

  const row = page.getByTestId("approval-row").filter({ hasText: "Review order #e2e_big_1" });
  await expect(row.getByRole("heading", { name: "Review order #e2e_big_1" })).toBeVisible();
  await expect(row.getByRole("link", { name: NAME })).toBeVisible();
  await expect(row.getByRole("link", { name: /^Order #e2e_big_1 · .*€1,250\.00 · paid$/ })).toHaveAttribute(
    "href",
    "/orders/e2e_big_1",
  );
  await expect(row).toContainText("Asked just now");
  const timesOut = row.getByTestId("times-out-in");
  // Relative and absolute together (in the shop's zone), then what follows.
  await expect(timesOut).toHaveText(
    /^Times out in 3 days · [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M, then follows 'Timed out'$/,
  );
  await expect(timesOut.locator("time")).toHaveAttribute("title", /\d{4}, \d{1,2}:\d{2} (AM|PM)/);
  await expect(row.getByTestId("approval-state")).toHaveText("Awaiting decision");

  // A marker on the window proves the page is never reloaded.
  await page.evaluate(() => Object.assign(window, { stillHere: true }));
  await row.getByLabel("Note").fill("Checked with the customer by phone");
  await row.getByRole("button", { name: "Approve: Review order #e2e_big_1" }).click();
  await expect(row.getByTestId("approval-state")).toHaveText("Approved");
  await expect(row.getByTestId("approval-outcome")).toContainText(
    `Approved by ${DEMO_USERS.editor.email} just now`,
  );
  await expect(row.getByTestId("approval-outcome")).toContainText("Checked with the customer by phone");
  // The run goes on by itself: the row follows it to the end.
  await expect(row.getByTestId("run-progress").getByTestId("run-status")).toHaveText("Succeeded", {
    timeout: 20_000,
  });
  await expect(nav.getByTestId("pending-approvals-count")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(await tagsOf(page.request, "e2e_big_1")).toContain("reviewed");

  await row.getByRole("link", { name: /^Open run/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Succeeded");
  const step = page.getByTestId("approval-step");
  await expect(step).toContainText("Asks: Review order #e2e_big_1");
  await expect(step).toContainText(`Approved by ${DEMO_USERS.editor.email}`);
  await expect(step).toContainText("Checked with the customer by phone");
  await expect(page.getByRole("region", { name: "After the approval" })).toContainText("Add tag");
});

test("on the run page the run reads Awaiting approval, and rejecting it there runs the note live", async ({
  page,
}) => {
  await signIn(page, "editor");
  await payOrder(page.request, "e2e_big_2", 4200);
  await pendingApproval(page.request, "e2e_big_2");
  await openRun(page, "e2e_big_2");
  await expect(page.getByTestId("run-status").first()).toHaveText("Awaiting approval");
  await expect(page.locator("main header").first()).toContainText(
    "Waiting for a decision: Review order #e2e_big_2",
  );
  const step = page.getByTestId("approval-step");
  await expect(step).toContainText(
    /Times out in 3 days · [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M, then follows 'Timed out'/,
  );

  await step.getByLabel("Note").fill("Address does not match");
  await step.getByRole("button", { name: /^Reject/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Succeeded", { timeout: 20_000 });
  await expect(step).toContainText(`Rejected by ${DEMO_USERS.editor.email}`);
  await expect(step).toContainText("Address does not match");
  await expect(page.getByRole("region", { name: "After the approval" })).toContainText("Add note");
});

test("the Waiting list shows the approval and its title; deciding it as timed out follows 'Timed out'", async ({
  page,
}) => {
  await signIn(page, "editor");
  await payOrder(page.request, "e2e_big_3");
  await pendingApproval(page.request, "e2e_big_3");
  await page.goto("/waiting");
  const row = page.getByTestId("waiting-row").filter({ hasText: "Review order #e2e_big_3" });
  await expect(row.getByTestId("wait-kind")).toHaveText("Approval");
  await expect(row.getByTestId("times-out-in")).toHaveText(
    /^Times out in 3 days · [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M$/,
  );
  // It acts only once confirmed, as Cancel wait does; keeping it waiting changes nothing.
  await row.getByRole("button", { name: /^Decide as timed out now/ }).click();
  const dialog = page.getByRole("dialog", { name: "Decide this approval as timed out now?" });
  await dialog.getByRole("button", { name: "Keep waiting" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: /^Decide as timed out now/ }).click();
  await dialog.getByRole("button", { name: "Time out now" }).click();
  await expect(row).toHaveCount(0, { timeout: 20_000 });

  await openRun(page, "e2e_big_3");
  // 'Timed out' leads nowhere in this flow: the run took no action, so it reads Nothing to do.
  await expect(page.getByTestId("run-status").first()).toHaveText("Nothing to do", { timeout: 20_000 });
  await expect(page.getByTestId("approval-step")).toContainText(
    new RegExp(
      `Timed out early, as ${literally(DEMO_USERS.editor.email)} decided, at .+, so the run followed 'Timed out'\\.`,
    ),
  );
  expect(await tagsOf(page.request, "e2e_big_3")).not.toContain("reviewed");
});

test("a decision someone else took first is refused in plain words", async ({ page, browser }) => {
  await signIn(page, "editor");
  await payOrder(page.request, "e2e_big_4");
  const waitId = await pendingApproval(page.request, "e2e_big_4");
  // This tab keeps showing the list as it was loaded, as if its next refresh had not come yet.
  const stale = await (await page.request.get("/api/v1/approvals?status=pending&limit=50")).text();
  await page.route(/\/api\/v1\/approvals\?/, (route) =>
    route.fulfill({ body: stale, contentType: "application/json" }),
  );
  await page.goto("/approvals");
  const row = page.getByTestId("approval-row").filter({ hasText: "Review order #e2e_big_4" });
  await expect(row.getByRole("button", { name: /^Approve/ })).toBeVisible();

  // Someone else (each person votes once: the editor's own second vote is refused otherwise).
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, "admin");
  const elsewhere = await admin.request.post(`/api/v1/approvals/${waitId}`, {
    data: { decision: "rejected", note: "Fraud check failed" },
  });
  expect(elsewhere.status(), await elsewhere.text()).toBe(200);
  await adminContext.close();
  await row.getByRole("button", { name: /^Approve/ }).click();
  const refusal = row.getByRole("alert");
  await expect(refusal).toContainText("This approval can no longer be decided");
  await expect(refusal).toContainText(
    new RegExp(
      `This approval was already rejected by ${literally(DEMO_USERS.admin.email)} at \\w{3} \\d{1,2}, \\d{4}`,
    ),
  );
  await expect(row.getByRole("button", { name: /^(Approve|Reject)/ })).toHaveCount(0);
  await expect(row.getByTestId("run-progress").getByTestId("run-status")).toHaveText("Succeeded", {
    timeout: 20_000,
  });
  await page.unroute(/\/api\/v1\/approvals\?/);
});

test("a viewer follows an approval link to its row and sees no buttons, here or on the run", async ({
  browser,
}) => {
  const editor = await browser.newPage();
  await signIn(editor, "editor");
  await payOrder(editor.request, "e2e_big_5");
  const waitId = await pendingApproval(editor.request, "e2e_big_5");
  await editor.close();

  const page = await browser.newPage();
  await signIn(page, "viewer");
  await expect(page.getByTestId("pending-approvals-count")).toHaveText(/1\s*waiting/);
  await page.goto(`/approvals?wait=${waitId}`);
  const row = page.locator(`[data-testid="approval-row"][data-wait-id="${waitId}"]`);
  await expect(row).toHaveAttribute("data-highlighted", "true");
  await expect(row).toBeFocused();
  await expect(row).toContainText("The approval your link points to");
  await expect(row).toContainText("Review order #e2e_big_5");
  await expect(row).toContainText("Editors and admins decide approvals; you can follow this one here.");
  await expect(page.getByRole("button", { name: /^(Approve|Reject)/ })).toHaveCount(0);
  await expect(page.getByLabel("Note")).toHaveCount(0);

  // A link to an approval already decided says what became of it.
  await page.goto(`/approvals?wait=${firstWaitId}`);
  await expect(page.getByTestId("linked-approval")).toContainText("is no longer waiting");
  await expect(page.getByTestId("linked-approval")).toContainText(`Approved by ${DEMO_USERS.editor.email}`);

  await page.goto(`/approvals?wait=${waitId}`);
  await row.getByRole("link", { name: /^Run [0-9a-f]{8}$/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Awaiting approval");
  await expect(page.getByTestId("approval-step")).toContainText("Editors and admins decide approvals");
  await expect(
    page.getByRole("button", { name: /^(Approve|Reject|Decide as timed out now|Cancel)/ }),
  ).toHaveCount(0);
  await page.close();
});
