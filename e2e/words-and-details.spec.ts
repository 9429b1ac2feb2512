import type { Page } from "@playwright/test";
import { expect, publishViaApi, signIn, startBlank, test } from "./helpers";

// Issue 13's defects 5, 8 and 9 (words, shop time, small editor details), each as a merchant meets
// it. Its own automations ("E2E words …") and orders, on the shared demo shop.
test.describe.configure({ mode: "serial" });

//  order_created ──▶ Wait 2 days (node id "wait") ──▶ add_tag(words)
const waitFlow = {
  nodes: [
    { id: "trigger", type: "auto.trigger.order_created", params: {} },
    { id: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "words" } },
  ],
  edges: [
    { id: "e0", source: "trigger", target: "wait" },
    { id: "e1", source: "wait", target: "tag" },
  ],
};

/** Every button whose accessible name is set apart from its text must still start with that text. */
async function namesMatchVisibleText(page: Page): Promise<string[]> {
  return page.locator("button[aria-label]").evaluateAll((buttons) =>
    buttons
      .filter((b) => (b as HTMLElement).offsetParent !== null)
      .flatMap((b) => {
        const text = (b.textContent ?? "").replace(/\s+/g, " ").trim();
        const name = b.getAttribute("aria-label") ?? "";
        return text && !name.toLowerCase().startsWith(text.toLowerCase())
          ? [`"${text}" is named "${name}"`]
          : [];
      }),
  );
}

test("a waiting run reads in a merchant's words, with times in the shop's zone", async ({ page }) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, "E2E words wait", waitFlow);
  const order = await page.request.put("/api/v1/entities/order/e2e_words_1", {
    data: { number: "#words", status: "pending", total: 20, currency: "EUR" },
  });
  expect(order.ok(), await order.text()).toBe(true);

  await page.goto(`/runs?automationId=${id}`);
  const row = page.getByTestId("run-row").first();
  await expect(row.getByTestId("run-status")).toHaveText("Waiting", { timeout: 20_000 });
  // Relative and absolute together; the exact time in Paris and in UTC on hover.
  await expect(row).toContainText(/Resumes in 2 days · [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M/);
  await expect(row.getByTestId("resumes-in")).toHaveAttribute("title", /GMT\+1 · .+ UTC$/);
  await row.getByRole("link").first().click();

  // Steps are named as drawn ("Wait 2 days"), never by their id ("Wait wait"); no "leg".
  const main = page.getByRole("main");
  await expect(page.getByRole("region", { name: "From the trigger" })).toContainText("Wait 2 days");
  await expect(main).not.toContainText("Wait wait");
  await expect(main).not.toContainText(/\bleg\b/i);
  expect(await namesMatchVisibleText(page)).toEqual([]);

  // "Cancel wait" opens a dialog whose way back says what it keeps.
  await page.getByRole("button", { name: /^Cancel wait: Wait 2 days/ }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this wait?" });
  await expect(dialog.getByRole("button", { name: "Keep waiting" })).toBeFocused();
  await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Keep waiting" }).click();
  await expect(dialog).toBeHidden();
});

test("an admin moves the shop to another time zone and every time follows", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/settings");
  await page.waitForURL("**/settings/shop");
  const zone = page.getByLabel("Time zone");
  await expect(zone).toHaveValue("Europe/Paris");
  await zone.selectOption("America/New_York");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved. Times are now shown in America/New_York.")).toBeVisible();

  await page.goto("/waiting");
  const wait = page.getByTestId("waiting-row").filter({ hasText: "E2E words wait" });
  await expect(wait.getByTestId("resumes-in")).toHaveAttribute("title", /EST · .+ UTC$/);

  // Back to Paris, as the other tests expect; a zone that does not exist is refused by the server.
  await page.goto("/settings/shop");
  await page.getByLabel("Time zone").selectOption("Europe/Paris");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved. Times are now shown in Europe/Paris.")).toBeVisible();
});

test("a viewer reads the shop's settings but cannot change them", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/settings/shop");
  await expect(page.getByLabel("Time zone")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByText("Only an admin can change the shop's settings.")).toBeVisible();
});

test("the editor: search clears after adding, a deleted middle step is bridged, small refusals are clear", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  await startBlank(page);
  const nodes = page.locator(".react-flow__node");
  const edges = page.locator(".react-flow__edge");
  const palette = page.getByRole("complementary", { name: "Steps" });
  const search = palette.getByRole("searchbox", { name: "Search steps" });

  // Platform jobs are not a merchant's steps.
  await expect(palette.getByRole("button", { name: /Purge run history/ })).toHaveCount(0);

  // Type, Enter, and the search is empty for the next step.
  await search.fill("order paid");
  await search.press("Enter");
  await expect(nodes).toHaveCount(1);
  await expect(search).toHaveValue("");
  await search.fill("wait");
  await search.press("Enter");
  await expect(search).toHaveValue("");
  await page.getByRole("tabpanel").getByLabel("Duration").fill("");
  await expect(nodes.filter({ hasText: "Wait (set a duration)" })).toBeVisible();
  await page.getByRole("tabpanel").getByLabel("Duration").fill("1");
  await palette.getByRole("button", { name: "Add tag", exact: true }).click();
  await expect(edges).toHaveCount(2);

  // One tag per step: "a, b" is refused on the spot.
  await page.getByRole("tabpanel").getByLabel("Tag").fill("a, b");
  await expect(page.getByRole("tabpanel")).toContainText("cannot contain a comma; add one step per tag");
  await page.getByRole("tabpanel").getByLabel("Tag").fill("words");

  // Delete the wait in the middle: the trigger now leads straight to the tag.
  // The card reads "Wait" (its kind) above "Wait 1 hour": the sentence is what starts with "Wait 1".
  await nodes.filter({ has: page.locator("p", { hasText: /^Wait 1 / }) }).click();
  await page.keyboard.press("Delete");
  await expect(nodes).toHaveCount(2);
  await expect(edges).toHaveCount(1);
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByRole("tabpanel")).not.toContainText("not connected");
});

test("publish says what is true: the new name, nothing to publish, and live for a viewer", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, "E2E words publish", waitFlow);
  await page.goto(`/automations/${id}`);
  // Exact: the flow's name has "publish" in it, and so has its Pause button's label.
  const publishButton = page.getByRole("button", { name: "Publish", exact: true });
  // Published and unchanged: nothing to publish, and the button says why.
  await expect(publishButton).toBeDisabled();
  await expect(publishButton).toHaveAttribute(
    "title",
    "Nothing to publish: the draft is the same as version 1.",
  );

  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByLabel("Name").fill("E2E words renamed");
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
  await publishButton.click();
  const dialog = page.getByRole("dialog", { name: /Publish version 2/ });
  await expect(dialog).toContainText("'E2E words renamed' switches from version 1 to version 2.");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Signed in, the sign-in page sends you on: start the viewer's session afresh.
  await page.context().clearCookies();
  await signIn(page, "viewer");
  await page.goto(`/automations/${id}`);
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Live: version 1 is running.");
  await expect(page.getByRole("tabpanel")).not.toContainText("Publish to start");
});
