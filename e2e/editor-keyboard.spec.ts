import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

// The editor by keyboard: `/` opens the add-step search, Enter adds the step and puts the focus in
// its first field; Ctrl+Enter opens Publish, and after publishing the focus is on the notice that
// says so, not lost on the page. axe stays clean with a step selected and the dialog open.

async function createDraft(page: Page, name: string, nodes: unknown[], edges: unknown[] = []) {
  const created = await page.request.post("/api/v1/automations", { data: { name, graph: { nodes, edges } } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "heading-order")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** What the tests publish, archived with its waits cancelled once they are done. */
const created: string[] = [];
putAwayAfterAll(created);

test("/ adds a step by search and typing goes straight into its first field; Ctrl+Enter publishes", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await createDraft(page, "E2E keyboard flow", [
    { id: "t", type: "auto.trigger.order_created", params: {}, position: { x: 0, y: 0 } },
  ]);
  created.push(id);
  await page.goto(`/automations/${id}`);
  await page.locator(".react-flow__node").filter({ hasText: "Order created" }).click();

  await page.keyboard.press("/");
  const search = page.getByRole("combobox", { name: "Search steps to add" });
  await expect(search).toBeFocused();
  await page.keyboard.type("add tag");
  await expect(page.getByRole("option", { name: /Add tag/ }).first()).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await page.keyboard.press("Enter");
  const tag = page.getByRole("tabpanel").getByLabel("Tag", { exact: true });
  await expect(tag).toBeFocused();
  await page.keyboard.type("keyboard-vip");
  await expect(tag).toHaveValue("keyboard-vip");
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await expect(page.getByText(/^Draft saved/)).toBeVisible();

  // A step is selected: axe finds nothing serious, and no heading skips a level.
  expect(await seriousViolations(page)).toEqual([]);

  const publish = page.getByRole("button", { name: "Publish", exact: true });
  await expect(publish).toHaveAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter");
  await page.keyboard.press("Control+Enter");
  const dialog = page.getByRole("dialog", { name: "Publish version 1" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Change note")).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);

  await page.keyboard.type("Tagged by keyboard");
  // The first version has no policy to choose: the note, Cancel, then Publish.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Publish", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  const notice = page.getByTestId("editor-notice");
  await expect(notice).toContainText("Version 1 is live");
  await expect(notice).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
});

test("Ctrl+K opens the same search; Escape closes it; the code editor expands and Escape shrinks it", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await createDraft(
    page,
    "E2E code expands",
    [
      { id: "t", type: "auto.trigger.order_created", params: {}, position: { x: 0, y: 0 } },
      {
        id: "c",
        type: "auto.action.code",
        params: { source: "if (entity.shipping) actions.tag('ship');" },
        position: { x: 0, y: 160 },
      },
    ],
    [{ id: "e0", source: "t", target: "c" }],
  );
  await page.goto(`/automations/${id}`);
  await page.locator(".react-flow__node").filter({ hasText: "Run code" }).click();

  await page.keyboard.press("Control+k");
  const search = page.getByRole("combobox", { name: "Search steps to add" });
  await expect(search).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(search).toBeHidden();

  const panel = page.getByRole("tabpanel");
  await expect(panel.getByTestId("code-field-warnings")).toContainText(
    "'shipping' is not a field of the order, so entity.shipping is undefined.",
  );
  const frame = panel.getByTestId("code-editor-frame");
  const narrow = (await frame.boundingBox())!.width;
  await panel.getByRole("button", { name: "Expand editor" }).click();
  await expect(frame).toHaveAttribute("data-expanded", "true");
  expect((await frame.boundingBox())!.width).toBeGreaterThan(narrow * 2);
  await panel.getByRole("textbox", { name: "Script" }).click();
  await page.keyboard.press("Escape");
  await expect(frame).not.toHaveAttribute("data-expanded", "true");
});
