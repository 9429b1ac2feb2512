import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

/*
 * Backtest (SPEC §2 "Backtest and why"): ten paid orders ran a live "total over 100 → tag" flow;
 * an editor lowers the threshold to 50 on the canvas, opens the publish dialog, tries the edit on
 * the last 50 real runs, reads the four orders that would now be tagged and opens one — whose run
 * page says why its condition went the way it did then. Nothing is published. The editor's
 * Backtest tab does the same for the canvas. Named to run after blank-shop.spec.ts (files run in
 * name order): it starts runs.
 */
test.describe.configure({ mode: "serial" });

const NAME = "E2E backtest: tag big orders";
const TOTALS = [20, 40, 60, 70, 80, 90, 110, 130, 150, 200];
const published: string[] = [];
putAwayAfterAll(published);
let automationId = "";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

const tagOver = (threshold: number) => ({
  nodes: [
    { id: "paid", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
    {
      id: "big",
      type: "auto.condition.field",
      params: { path: "total", operator: "gt", value: threshold },
      position: { x: 0, y: 150 },
    },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "e2e-big" }, position: { x: 0, y: 300 } },
  ],
  edges: [
    { id: "paid-big", source: "paid", target: "big" },
    { id: "big-tag", source: "big", sourceHandle: "true", target: "tag" },
  ],
});

async function payOrders(page: Page): Promise<void> {
  for (const [i, total] of TOTALS.entries()) {
    const order = { number: `#BT-${i + 1}`, total, currency: "EUR", email: `bt${i + 1}@example.com` };
    for (const status of ["pending", "paid"]) {
      const res = await page.request.put(`/api/v1/entities/order/e2e_bt_${i + 1}`, {
        data: { ...order, status },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
  }
}

test("an editor tries a lower threshold on the last 50 real runs from the publish dialog and opens a changed run", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, NAME, tagOver(100));
  published.push(id);
  automationId = id;
  await payOrders(page);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/runs?automationId=${id}&status=succeeded&limit=50`);
        return ((await res.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 20_000 },
    )
    .toBe(TOTALS.length);

  // Edit the live flow: over 50 instead of over 100.
  await page.goto(`/automations/${id}`);
  await page.locator(".react-flow__node").filter({ hasText: "Total is greater than 100" }).click();
  await page.getByRole("tabpanel").getByLabel("Value").fill("50");
  await expect(
    page.locator(".react-flow__node").filter({ hasText: "Total is greater than 50" }),
  ).toBeVisible();
  await expect(page.getByText(/^Draft saved/)).toBeVisible();

  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish version 2/ });
  await dialog.getByRole("button", { name: "Try on the last 50 real runs" }).click();
  await expect(dialog.getByTestId("backtest-summary")).toHaveText(
    "Replayed 10 real runs: 4 runs would newly reach “Add tag 'e2e-big'”.",
    { timeout: 15_000 },
  );
  const changed = dialog
    .getByRole("list", { name: "Runs that would take another path" })
    .getByRole("listitem");
  await expect(changed).toHaveCount(4);
  for (const number of ["#BT-3", "#BT-4", "#BT-5", "#BT-6"])
    await expect(changed.filter({ hasText: `Order ${number} ` })).toContainText(
      "would newly reach “Add tag 'e2e-big'”",
    );

  // Open one: its run page leads with the condition that stopped it then, and what it read.
  await changed.filter({ hasText: "Order #BT-5 " }).getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-nothing-to-do")).toContainText(
    "Stopped at “Total is greater than 100”: Total is 80, not more than 100.",
  );
  await expect(page.getByTestId("condition-why")).toHaveText(
    "Why: Total is 80, not more than 100, so it went False.",
  );

  // Nothing was published or tagged.
  const automation = await page.request.get(`/api/v1/automations/${id}`);
  expect(((await automation.json()) as { version: number }).version).toBe(1);
  const order = await page.request.get("/api/v1/entities/order/e2e_bt_5");
  expect(((await order.json()) as { tags: string[] }).tags).not.toContain("e2e-big");
});

test("the editor's Backtest tab tries the canvas, unsaved edits included, by keyboard", async ({ page }) => {
  await signIn(page, "editor", { then: `/automations/${automationId}` });
  const tab = page.getByRole("tab", { name: "Backtest" });
  await tab.focus();
  await page.keyboard.press("Enter");
  const panel = page.getByRole("tabpanel", { name: "Backtest" });
  await expect(panel).toContainText("Nothing is saved or sent");
  await panel.getByRole("button", { name: "Try on the last 50 real runs" }).focus();
  await page.keyboard.press("Enter");
  // The draft saved above (over 50) is on the canvas: the same four orders.
  await expect(panel.getByTestId("backtest-summary")).toHaveText(
    "Replayed 10 real runs: 4 runs would newly reach “Add tag 'e2e-big'”.",
    { timeout: 15_000 },
  );
  await expect(panel.getByRole("link")).toHaveCount(4);
  expect(await seriousViolations(page)).toEqual([]);
});
