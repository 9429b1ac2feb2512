import type { Locator, Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

// One automation is built in the first test and used by the ones after it.
test.describe.configure({ mode: "serial" });

let editorUrl = "";
let runUrl = "";

function canvasNode(page: Page, text: string | RegExp): Locator {
  return page.locator(".react-flow__node").filter({ hasText: text });
}

/** A new blank draft named `name`, opened in the editor on its Settings tab. */
async function openBlank(page: Page, name: string): Promise<void> {
  await page.goto("/automations/new");
  await startBlank(page, name);
  await page.getByRole("tab", { name: "Settings" }).click();
}

async function waitForSave(page: Page): Promise<void> {
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
}

test("an editor builds trigger → wait 2 days → condition → action from a blank canvas and publishes it", async ({
  page,
}) => {
  await signIn(page, "editor");
  await openBlank(page, "Tag big orders two days after payment");
  await expect(page.getByText("Start with a trigger")).toBeVisible();

  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order paid" }).click();
  await expect(canvasNode(page, "Order paid")).toBeVisible();

  // With the trigger selected, the next step is added after it and connected.
  await palette.getByRole("button", { name: "Wait", exact: true }).click();
  const config = page.getByRole("tabpanel");
  await config.getByLabel("Duration").fill("2");
  await config.getByLabel("Unit").selectOption("days");
  await expect(canvasNode(page, "Wait 2 days")).toBeVisible();
  await expect(config).toContainText("When the wait finishes we look at the order again");

  await palette.getByRole("button", { name: "Check a field" }).click();
  await config.getByLabel("Field").selectOption("total");
  await config.getByLabel("Operator").selectOption("gt");
  await config.getByLabel("Value").fill("100");

  await palette.getByRole("button", { name: "Add tag", exact: true }).click();
  await expect(page.locator(".react-flow__edge")).toHaveCount(3);

  // The tag is still empty: the panel reports it, the node is marked, Publish waits.
  await page.getByRole("tab", { name: /Issues/ }).click();
  const issue = page.getByRole("button", { name: /tag cannot be empty/i });
  await expect(issue).toBeVisible();
  await expect(canvasNode(page, "Add tag")).toContainText("1 issue");
  await expect(page.getByRole("button", { name: "Publish" })).toBeDisabled();

  await issue.click();
  await page.getByRole("tabpanel").getByLabel("Tag").fill("big-order");
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByText("Ready to publish")).toBeVisible();
  await waitForSave(page);

  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish version 1/ });
  await expect(dialog).toContainText("This is the first version.");
  await dialog.getByLabel("Change note").fill("First version");
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByText("Active", { exact: true }).first()).toBeVisible();
  editorUrl = page.url();

  // An order is paid: the run starts and waits two days.
  const paid = await page.request.post("/api/v1/events", {
    data: { type: "order.paid", domain: "order", entityId: "ord_1001" },
  });
  expect(paid.ok()).toBe(true);
  await page.getByRole("navigation", { name: "Automation" }).getByRole("link", { name: "Runs" }).click();
  const run = page.getByTestId("run-row").first();
  await expect(run).toContainText("Waiting");
  await expect(run).toContainText("Resumes in 2 days");
  await run.getByRole("link").first().click();
  await expect(page.getByRole("region", { name: "The flow, with the path this run took" })).toBeVisible();
  runUrl = page.url();
  await expect(canvasNode(page, "Wait 2 days")).toContainText("Waiting");
});

test("publishing version 2 (cancel) dooms the waiting run; reverting to version 1 rescues it, and every screen says so", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto(editorUrl);
  await canvasNode(page, "Wait 2 days").click();
  await page.getByRole("tabpanel").getByLabel("Duration").fill("3");
  await expect(canvasNode(page, "Wait 3 days")).toBeVisible();
  await waitForSave(page);

  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish version 2/ });
  await expect(dialog).toContainText("Changed 'Wait': duration 2 → 3");
  // The run waits at v1's "Wait 2 days". An automation made in the admin keeps the people already
  // in it by default (issue 49); the policy can be chosen right here, and the sentence follows it.
  const impact = dialog.getByTestId("publish-impact");
  await expect(impact).toHaveText(
    "1 run is waiting at 'Wait 2 days'; with the current policy they will finish on the version they started with.",
  );
  await expect(dialog.getByRole("radio", { name: /Finish on the version they started with/ })).toBeChecked();
  await dialog.getByRole("radio", { name: /Cancel waiting runs/ }).check();
  await expect(impact).toContainText("they will be cancelled when they wake");
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Version 2", { exact: true })).toBeVisible();

  // The run will be cancelled when it wakes, and its page says so instead of "Resumes in 2 days".
  await page.goto(runUrl);
  await expect(page.getByRole("main")).toContainText(
    "Will be cancelled when it wakes: the automation was edited (version 2) and its in-flight policy is 'cancel'.",
  );
  await expect(page.getByTestId("resumes-in")).toHaveCount(0);

  await page.goto(editorUrl);
  await page.getByRole("tab", { name: "Versions" }).click();
  const versions = page.getByRole("tabpanel");
  await expect(versions).toContainText("Version 2");
  await expect(versions).toContainText("First version");
  await versions.getByRole("button", { name: /View version 1/ }).click();
  await expect(page.getByText("Viewing version 1 — read-only.")).toBeVisible();
  await expect(canvasNode(page, "Wait 2 days")).toBeVisible();

  await versions.getByRole("button", { name: /Revert to this version \(version 1\)/ }).click();
  const revert = page.getByRole("dialog", { name: "Revert to version 1?" });
  await expect(revert).toContainText(
    "1 run is waiting at 'Wait 2 days'; it continues: it started on these same steps.",
  );
  await revert.getByRole("button", { name: "Revert to version 1" }).click();
  await expect(page.getByText("Version 3", { exact: true })).toBeVisible();
  await expect(canvasNode(page, "Wait 2 days")).toBeVisible();
  await expect(page.getByText("Viewing version 1 — read-only.")).toHaveCount(0);

  // Rescued: the run on version 1 resumes in 2 days again.
  await page.goto(runUrl);
  await expect(page.getByTestId("resumes-in").first()).toHaveText("Resumes in 2 days");
  await expect(page.getByRole("main")).not.toContainText("Will be cancelled when it wakes");
});

test("a dry run shows the path the draft would take for a real order, and changes nothing", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto(editorUrl);
  await page.getByRole("tab", { name: "Dry run" }).click();
  const panel = page.getByRole("tabpanel");
  await panel.getByRole("searchbox").fill("1001");
  await panel.getByRole("radio", { name: /#1001/ }).check();
  await panel.getByRole("button", { name: "Run dry run" }).click();
  await expect(panel).toContainText("Nothing was changed — this is a dry run.");
  await expect(panel).toContainText("After the wait");
  await expect(canvasNode(page, "Order paid")).toContainText("starts");
  await expect(canvasNode(page, "Wait 2 days")).toContainText("would wait");
  await expect(page.locator(".react-flow__edge.animated")).not.toHaveCount(0);
});

test("a viewer sees the canvas read-only", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto(editorUrl);
  await expect(page.getByText("Read-only: viewers can’t edit")).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
  await expect(
    page.getByRole("complementary", { name: "Steps" }).getByRole("button", { name: "Add tag", exact: true }),
  ).toBeDisabled();
  await canvasNode(page, "Wait 2 days").click();
  await expect(page.getByRole("tabpanel").getByLabel("Duration")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Delete step" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /(Add|Insert) a step after/ })).toHaveCount(0);
});

/** Presses Tab until `target` has focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, limit = 200): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the element");
}

test("keyboard only: add steps, connect them, configure, publish", async ({ page }) => {
  // About 80 key presses, each awaited: 9 s on a quiet machine, 20 s with both cores busy.
  test.setTimeout(60_000);
  await signIn(page, "editor");
  await openBlank(page, "Keyboard-built flow");
  const palette = page.getByRole("complementary", { name: "Steps" });
  const search = palette.getByRole("searchbox", { name: "Search steps" });

  // An action first: nothing is selected, so it stands alone. Ctrl+K opens the add-step search
  // (from any field); Enter adds the step and puts the focus in its first field: no Tab needed.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("add tag");
  await page.keyboard.press("Enter");
  await expect(canvasNode(page, "Add tag")).toBeVisible();

  // The tag, from the step panel.
  const tag = page.getByRole("tabpanel").getByLabel("Tag");
  await expect(tag).toBeFocused();
  await page.keyboard.type("keyboard");
  await expect(canvasNode(page, "keyboard")).toBeVisible();

  // Then the trigger from the palette's own search, connected to the action from "Next steps".
  await tabTo(page, search);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("order paid");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(canvasNode(page, "Order paid")).toBeVisible();
  const connectTo = page.getByRole("tabpanel").getByLabel("Connect to");
  await tabTo(page, connectTo);
  await page.keyboard.press("ArrowDown");
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await expect(page.getByRole("tabpanel")).toContainText("→ Add tag 'keyboard'");

  await waitForSave(page);
  const publish = page.getByRole("button", { name: "Publish" });
  await expect(publish).toBeEnabled();
  // Ctrl+Enter is Publish's shortcut.
  await page.keyboard.press("Control+Enter");
  const dialog = page.getByRole("dialog", { name: /Publish version 1/ });
  await tabTo(page, dialog.getByRole("button", { name: "Publish" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
});

test("two tabs editing one draft: the second save is refused with a conflict instead of overwriting", async ({
  page,
}) => {
  await signIn(page, "editor");
  await openBlank(page, "Edited in two tabs");
  await waitForSave(page);
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(canvasNode(other, /./)).toHaveCount(0);

  // The first tab adds a trigger and saves.
  await page
    .getByRole("complementary", { name: "Steps" })
    .getByRole("button", { name: "Order paid" })
    .click();
  await waitForSave(page);

  // The second tab still has the old draft; its edit must not overwrite the first tab's.
  await other
    .getByRole("complementary", { name: "Steps" })
    .getByRole("button", { name: "Cart abandoned" })
    .click();
  await expect(other.getByRole("alert").filter({ hasText: "Someone else changed this draft" })).toBeVisible();
  await other.getByRole("button", { name: "Reload" }).click();
  await expect(canvasNode(other, "Order paid")).toBeVisible();
  await expect(canvasNode(other, "Cart abandoned")).toHaveCount(0);
});

test("a built-in's schedule shows its next fire times; an admin resets it to the built-in definition", async ({
  page,
}) => {
  await signIn(page, "admin");
  await page.getByRole("link", { name: "Mark carts abandoned" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mark carts abandoned" })).toBeVisible();
  await canvasNode(page, /On a schedule/).click();
  const panel = page.getByRole("tabpanel");
  await expect(panel.getByRole("heading", { name: "Next five fire times" })).toBeVisible();
  await expect(panel.getByRole("table").getByRole("row")).toHaveCount(6);

  // An admin's edit of the built-in is a draft like any other; Reset publishes the definition again.
  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByRole("button", { name: "Reset Mark carts abandoned to built-in" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset to built-in" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Reset to the built-in definition" }),
  ).toBeVisible();
  await expect(page.getByText("Version 2", { exact: true })).toBeVisible();
});

test("an editor reads a built-in but cannot change it", async ({ page }) => {
  await signIn(page, "editor");
  await page.getByRole("link", { name: "Mark carts abandoned" }).click();
  await expect(page.getByText("Read-only: only admins change built-in automations")).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
});
