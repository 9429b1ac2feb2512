import type { Locator, Page } from "@playwright/test";
import { expect, signIn, test } from "./helpers";

// Issue 13, item 7: the editor fits a laptop screen (every panel tab visible, the toolbar on one
// line) and every page fits a phone (nothing wider than the screen; the editor says to use a
// larger screen and shows the flow read-only). One flow and one finished run are set up through
// the API in the first test and looked at by the others.
test.describe.configure({ mode: "serial" });

const NAME = "Layout e2e tagger";
const ORDER = "ord_layout_e2e";

//  order_created ──▶ add_tag(layout-e2e), stored without positions (placed by the server)
const tagFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "layout-e2e" } },
  ],
  edges: [{ id: "e0", source: "t", target: "tag" }],
};

let automationId = "";
let runPath = "";

/** Fails naming what sticks out when the page is wider than the screen. */
async function expectNoWiderThanScreen(page: Page, width: number): Promise<void> {
  const measured = await page.evaluate(() => {
    const screen = document.documentElement.clientWidth;
    const scrolls = (el: Element | null): boolean => {
      for (let at = el; at && at !== document.body; at = at.parentElement) {
        const overflow = getComputedStyle(at).overflowX;
        if (overflow !== "visible") return true;
      }
      return false;
    };
    const offenders = [...document.body.querySelectorAll("*")]
      .filter((el) => el.getBoundingClientRect().right > screen + 1 && !scrolls(el.parentElement))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 80)}`);
    return { scrollWidth: document.documentElement.scrollWidth, offenders };
  });
  expect(
    measured.scrollWidth,
    `${page.url()} is too wide: ${measured.offenders.join(" | ")}`,
  ).toBeLessThanOrEqual(width);
}

/** The top edges of these controls, which sit on one line when they are all equal. */
async function tops(locators: Locator[]): Promise<number[]> {
  const boxes = await Promise.all(locators.map((l) => l.boundingBox()));
  return boxes.map((box) => Math.round(box?.y ?? -1));
}

test("setup: a published flow and one finished run", async ({ page }) => {
  await signIn(page, "admin");
  const created = await page.request.post("/api/v1/automations", { data: { name: NAME, graph: tagFlow } });
  expect(created.status(), await created.text()).toBe(201);
  automationId = ((await created.json()) as { id: string }).id;
  const published = await page.request.post(`/api/v1/automations/${automationId}/publish`, {
    data: { note: "layout e2e" },
  });
  expect(published.status(), await published.text()).toBe(200);
  const order = await page.request.put(`/api/v1/entities/order/${ORDER}`, {
    data: { number: "#7711", status: "pending", total: 42, currency: "EUR", tags: [] },
  });
  expect(order.ok(), await order.text()).toBe(true);

  await expect(async () => {
    await page.goto(`/runs?automationId=${automationId}`);
    await expect(page.getByTestId("run-row").first()).toContainText(/Completed|Succeeded|Done/i, {
      timeout: 1000,
    });
  }).toPass({ timeout: 20_000 });
  await page.getByTestId("run-row").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  runPath = new URL(page.url()).pathname;

  // Paused, so the orders the later spec files create start no runs of this flow.
  const paused = await page.request.post(`/api/v1/automations/${automationId}/pause`);
  expect(paused.status(), await paused.text()).toBe(200);
});

test("at 1440×900 every side-panel tab shows and opens, and the editor toolbar is one line", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "admin");
  await page.goto(`/automations/${automationId}`);
  await expect(page.locator(".react-flow__node")).toHaveCount(2);

  const tablist = page.getByRole("tablist", { name: "Panels" });
  const listBox = await tablist.boundingBox();
  expect(listBox).not.toBeNull();
  // Nothing scrolls inside the tab list, and every tab sits wholly inside it, in one row.
  expect(await tablist.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const tabs = tablist.getByRole("tab");
  await expect(tabs).toHaveCount(6);
  const names = [/^Issues/, /^Step$/, /^Dry run$/, /^Backtest$/, /^Versions$/, /^Settings$/];
  for (const name of names) {
    const tab = tablist.getByRole("tab", { name });
    await expect(tab).toBeVisible();
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(listBox!.x);
    expect(box.x + box.width).toBeLessThanOrEqual(listBox!.x + listBox!.width + 0.5);
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
  }
  expect(new Set(await tops(names.map((name) => tablist.getByRole("tab", { name })))).size).toBe(1);

  const toolbar = page.getByTestId("editor-toolbar");
  const controls = [
    toolbar.getByText(/^Draft saved|^Saving|^Unsaved/),
    toolbar.getByRole("button", { name: "Undo" }),
    toolbar.getByRole("button", { name: "Redo" }),
    toolbar.getByRole("button", { name: `Activate ${NAME}` }),
    toolbar.getByRole("button", { name: "Publish" }),
    toolbar.getByRole("button", { name: "More" }),
  ];
  for (const control of controls) await expect(control).toBeVisible();
  const buttonTops = await tops(controls.slice(1));
  expect(new Set(buttonTops).size, `toolbar buttons' tops: ${buttonTops.join(", ")}`).toBe(1);
  // The header is one line too: the title beside the toolbar, not above it.
  const title = page.getByRole("heading", { level: 1, name: NAME });
  const titleBox = (await title.boundingBox())!;
  const publishBox = (await controls[4]!.boundingBox())!;
  expect(titleBox.y).toBeLessThan(publishBox.y + publishBox.height);
  expect(titleBox.y + titleBox.height).toBeGreaterThan(publishBox.y);
  await expectNoWiderThanScreen(page, 1440);
});

test("the More menu opens from the keyboard, moves with the arrows and closes on Escape", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "admin");
  await page.goto(`/automations/${automationId}`);
  const more = page.getByRole("button", { name: "More" });
  await expect(more).toHaveAttribute("aria-haspopup", "menu");
  await expect(more).toHaveAttribute("aria-expanded", "false");

  await more.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "More actions" });
  await expect(menu).toBeVisible();
  await expect(more).toHaveAttribute("aria-expanded", "true");
  const tidy = menu.getByRole("menuitem", { name: "Tidy up" });
  const archive = menu.getByRole("menuitem", { name: `Archive ${NAME}` });
  await expect(tidy).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(archive).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(tidy).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute("aria-expanded", "false");

  // An item that asks first keeps the menu under its dialog; cancelling closes both.
  await more.click();
  await archive.click();
  const dialog = page.getByRole("dialog", { name: `Archive '${NAME}'?` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(menu).toBeHidden();

  // Tidy up (dagre, loaded on demand) lays the flow out and closes the menu.
  await more.click();
  await tidy.click();
  await expect(menu).toBeHidden();
  await expect(page.locator(".react-flow__node")).toHaveCount(2);
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
});

test("at 390×844 the admin pages, the run page and the editor are no wider than the screen", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "admin");
  const paths = [
    "/automations",
    "/automations/new",
    `/automations/${automationId}/runs`,
    `/automations/${automationId}/waiting`,
    "/runs",
    runPath,
    "/waiting",
    "/approvals",
    "/outbox",
    "/tasks",
    "/orders",
    `/orders/${ORDER}`,
    "/customers",
    "/customers/cus_1",
    "/settings",
    "/settings/api-keys",
    "/settings/credentials",
    "/settings/users",
    `/automations/${automationId}`,
  ];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
    await expectNoWiderThanScreen(page, 390);
  }
});

test("on a phone the shell is a top bar whose Menu button opens the pages", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "editor");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeHidden();
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await nav.getByRole("link", { name: "Orders" }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
});

test("on a phone the editor says to use a larger screen and shows the flow read-only", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "editor");
  await page.goto(`/automations/${automationId}`);
  await expect(page.getByText("The flow editor needs a larger screen")).toBeVisible();
  await expect(page.getByText(/open this page on a tablet or computer to edit/i)).toBeVisible();
  // The publish state, as the Issues tab shows it on a larger screen.
  await expect(page.getByRole("status").filter({ hasText: /version 1/i })).toBeVisible();
  const canvas = page.getByRole("region", { name: "Flow canvas" });
  await expect(canvas.locator(".react-flow__node")).toHaveCount(2);
  const box = (await canvas.boundingBox())!;
  expect(box.width).toBeGreaterThan(300);
  expect(box.height).toBeGreaterThan(300);
  // Nothing to edit with: no palette, no panel, no Publish, no "+" on the steps.
  await expect(page.getByRole("complementary", { name: "Steps" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /(Add|Insert) a step after/ })).toHaveCount(0);
  // Runs are a tap away.
  await page.getByRole("navigation", { name: "Automation" }).getByRole("link", { name: "Runs" }).click();
  await expect(page).toHaveURL(new RegExp(`/automations/${automationId}/runs$`));
  await expectNoWiderThanScreen(page, 390);
});
