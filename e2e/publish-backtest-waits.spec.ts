import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

/*
 * Backtest through waits (issue 49): a live "paid → Wait 1 hour → email" flow ran for four orders;
 * three waits were ended ("Resume now") and the emails went out, one run still waits. The editor's
 * draft adds "Total is at least 100" after the wait. The Backtest tab and the publish dialog follow
 * each run through its wait and say that the €93 order would no longer get the email, two would
 * take the same path, and the one still waiting cannot be told yet — not "All runs would take the
 * same path". Named to run after blank-shop.spec.ts (files run in name order): it starts runs.
 */
test.describe.configure({ mode: "serial" });

const NAME = "E2E backtest: reminder an hour later";
const published: string[] = [];
putAwayAfterAll(published);
let automationId = "";

const HEADLINE =
  "4 runs: 1 would take a different path; 2 would take the same path; 1 is still waiting, so its later steps are not known yet.";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

const at = (y: number) => ({ x: 0, y });
//  order_paid ──▶ Wait 1 hour ──▶ [total ≥ 100 ──true──▶] send_email
const reminder = (onlyBig: boolean) => ({
  nodes: [
    { id: "paid", type: "auto.trigger.order_paid", params: {}, position: at(0) },
    { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" }, position: at(150) },
    ...(onlyBig
      ? [
          {
            id: "big",
            type: "auto.condition.field",
            params: { path: "total", operator: "gte", value: 100 },
            position: at(300),
          },
        ]
      : []),
    {
      id: "mail",
      type: "auto.action.send_email",
      params: {
        purpose: "transactional",
        to: "{entity.email}",
        subject: "Your order {entity.number}",
        body: "Thanks again!",
      },
      position: at(450),
    },
  ],
  edges: onlyBig
    ? [
        { id: "paid-w", source: "paid", target: "w" },
        { id: "w-big", source: "w", target: "big" },
        { id: "big-mail", source: "big", sourceHandle: "true", target: "mail" },
      ]
    : [
        { id: "paid-w", source: "paid", target: "w" },
        { id: "w-mail", source: "w", target: "mail" },
      ],
});

async function payOrder(request: APIRequestContext, i: number, total: number) {
  const order = { number: `#BW-${i}`, total, currency: "EUR", email: `bw${i}@example.com` };
  for (const status of ["pending", "paid"]) {
    const res = await request.put(`/api/v1/entities/order/e2e_bw_${i}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
}

/** The automation's pending waits, once there are `count` of them. */
async function pendingWaits(request: APIRequestContext, id: string, count: number) {
  let waits: { id: string; runId: string }[] = [];
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/automations/${id}/waiting?limit=50`);
        waits = ((await res.json()) as { items: { id: string; runId: string }[] }).items;
        return waits.length;
      },
      { timeout: 20_000 },
    )
    .toBe(count);
  return waits;
}

async function succeeded(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/v1/runs?automationId=${id}&status=succeeded&limit=50`);
  return ((await res.json()) as { items: unknown[] }).items.length;
}

test("the Backtest tab follows each run through its wait: the €93 order would no longer get the email", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, NAME, reminder(false));
  published.push(id);
  automationId = id;
  // Three orders whose wait is ended now, so the email goes out after it; a fourth left waiting.
  for (const [i, total] of [150, 120, 93].entries()) await payOrder(page.request, i + 1, total);
  const waits = await pendingWaits(page.request, id, 3);
  for (const wait of waits) {
    const res = await page.request.post(`/api/v1/waits/${wait.id}/resume-now`);
    expect(res.ok(), await res.text()).toBe(true);
  }
  await expect.poll(() => succeeded(page.request, id), { timeout: 20_000 }).toBe(3);
  await payOrder(page.request, 4, 200);
  await pendingWaits(page.request, id, 1);

  // The draft: the email only for totals of at least 100, after the wait.
  const saved = await page.request.put(`/api/v1/automations/${id}/draft`, {
    data: { graph: reminder(true) },
  });
  expect(saved.ok(), await saved.text()).toBe(true);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/automations/${id}`);
  await page.getByRole("tab", { name: "Backtest" }).click();
  const panel = page.getByRole("tabpanel", { name: "Backtest" });
  await expect(panel).toContainText("through every wait as if it had ended");
  await panel.getByRole("button", { name: "Try on the last 50 real runs" }).click();
  await expect(panel.getByTestId("backtest-headline")).toHaveText(HEADLINE, { timeout: 15_000 });
  await expect(panel.getByTestId("backtest-summary")).toHaveText(
    // Under the headline, only what it does not say (the waiting run is said once above, once below).
    /^Replayed 4 real runs: 1 run would no longer reach “Email [^;]*”\.$/,
  );
  const changed = panel
    .getByRole("list", { name: "Runs that would take another path" })
    .getByRole("listitem");
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText("Order #BW-3 ");
  await expect(changed).toContainText("would no longer reach “Email");
  const unknown = panel
    .getByRole("list", { name: "Runs whose later steps are not known yet" })
    .getByRole("listitem");
  await expect(unknown).toHaveCount(1);
  await expect(unknown).toContainText("Order #BW-4 ");
  await expect(unknown).toContainText("still waiting, so its later steps are not known yet.");
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "/tmp/bt-backtest-tab-1280.png" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "/tmp/bt-backtest-tab-1440.png" });
});

test("the publish dialog gives the same answer", async ({ page }) => {
  await signIn(page, "editor", { then: `/automations/${automationId}` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish version 2/ });
  await dialog.getByRole("button", { name: "Try on the last 50 real runs" }).click();
  await expect(dialog.getByTestId("backtest-headline")).toHaveText(HEADLINE, { timeout: 15_000 });
  await expect(dialog.getByTestId("backtest-changed-run")).toHaveCount(1);
  await expect(dialog.getByTestId("backtest-changed-run")).toContainText("Order #BW-3 ");
  await expect(dialog.getByTestId("backtest-unknown-run")).toContainText("Order #BW-4 ");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByTestId("backtest").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/bt-publish-dialog-1280.png" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByTestId("backtest").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/bt-publish-dialog-1440.png" });
  // Nothing was published.
  const automation = await page.request.get(`/api/v1/automations/${automationId}`);
  expect(((await automation.json()) as { version: number }).version).toBe(1);
});
