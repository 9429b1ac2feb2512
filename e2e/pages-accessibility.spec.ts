import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

// axe on every page a merchant works in, with something on it: a published flow holding an order
// for approval (so Runs, a run, Waiting and Approvals have a row), a draft open in the editor with a
// step selected and its publish dialog open. Serious and critical violations fail, naming the rule
// and the elements.
//
// Named after the specs that check a freshly seeded shop's empty states (files run in name order).
test.describe.configure({ mode: "serial" });

//  Order paid ──▶ Approval "Review this order" ──approved──▶ Add tag 'reviewed'
const REVIEW = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", position: { x: 0, y: 0 }, params: {} },
    {
      id: "ask",
      type: "auto.control.approval",
      position: { x: 0, y: 120 },
      params: { title: "Review this order", timeoutHours: 72, approverRole: "editor" },
    },
    { id: "tag", type: "auto.action.add_tag", position: { x: 0, y: 240 }, params: { tag: "reviewed" } },
  ],
  edges: [
    { id: "e1", source: "t", target: "ask" },
    { id: "e2", source: "ask", sourceHandle: "approved", target: "tag" },
  ],
};

async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)} — ${n.failureSummary ?? ""}`).join(" · ")}`,
    );
  expect.soft(serious, `axe on ${where}`).toEqual([]);
}

let runUrl = "";
let draftId = "";

/** What the tests publish, archived with its waits cancelled once they are done. */
const published: string[] = [];
putAwayAfterAll(published);

test("a flow holds an order for approval, and a draft waits in the editor", async ({ page }) => {
  await signIn(page, "editor");
  published.push(await publishViaApi(page.request, "Axe: review paid orders", REVIEW));
  const order = { number: "#axe-1", total: 80, currency: "EUR", email: "axe-1@example.com" };
  for (const status of ["pending", "paid"]) {
    const res = await page.request.put("/api/v1/entities/order/axe-1", { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await page.goto("/approvals");
  const row = page.getByTestId("approval-row").filter({ hasText: "Review this order" }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await page.goto("/runs?domain=order&entityId=axe-1");
  await page.getByTestId("run-row").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  runUrl = page.url();

  const created = await page.request.post("/api/v1/automations", {
    data: { name: "Axe: a draft to publish", graph: REVIEW },
  });
  expect(created.status(), await created.text()).toBe(201);
  draftId = ((await created.json()) as { id: string }).id;
  published.push(draftId);
});

const PAGES = [
  ["the dashboard", "/dashboard"],
  ["the automations list", "/automations"],
  ["the runs list", "/runs"],
  ["the Waiting list", "/waiting"],
  ["the approvals inbox", "/approvals"],
  ["the orders list", "/orders"],
  ["an order", "/orders/axe-1"],
  ["the settings", "/settings"],
  ["the shop's settings", "/settings/shop"],
  ["the alerts", "/settings/alerts"],
  ["the alerts' history", "/settings/alerts/history"],
] as const;

for (const [name, path] of [...PAGES, ["a run", () => runUrl] as const]) {
  test(`axe finds nothing serious on ${name}`, async ({ page }) => {
    await signIn(page, "editor", { then: typeof path === "string" ? path : path() });
    await expect(page.getByRole("main")).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoSeriousViolations(page, name);
  });
}

test("axe finds nothing serious in the editor, with a step selected and with the publish dialog open", async ({
  page,
}) => {
  await signIn(page, "editor", { then: `/automations/${draftId}` });
  await page.locator(".react-flow__node").filter({ hasText: "Add tag" }).click();
  await expect(page.getByRole("tabpanel")).toBeVisible();
  await expectNoSeriousViolations(page, "the editor with a step selected");

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoSeriousViolations(page, "the editor's publish dialog");
});
