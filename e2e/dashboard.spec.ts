import { expect, publishViaApi, signIn, test } from "./helpers";
import { seedHistory, type SeedRun } from "./history-seed";

// The Dashboard (the app's home) and an automation's Insights tab, on seeded history: ten days of
// runs of one flow, with every outcome, two runs waiting and the code step's actions as steps.
//
//  Shipment delivered ──▶ Run code (tags, notes) ──▶ Wait 2 days ──▶ Add note
const NAME = "E2E insights: thank delivered shipments";
const graph = {
  nodes: [
    { id: "delivered", type: "auto.trigger.shipment_delivered", params: {}, position: { x: 0, y: 0 } },
    {
      id: "code",
      type: "auto.action.code",
      params: { source: 'actions.tag("delivered");\nactions.note("Thanked");' },
      position: { x: 0, y: 150 },
    },
    {
      id: "wait",
      type: "auto.control.wait",
      params: { duration: 2, unit: "days" },
      position: { x: 0, y: 300 },
    },
    {
      id: "note",
      type: "auto.action.add_note",
      params: { body: "Follow-up sent" },
      position: { x: 0, y: 450 },
    },
  ],
  edges: [
    { id: "e1", source: "delivered", target: "code" },
    { id: "e2", source: "code", target: "wait" },
    { id: "e3", source: "wait", target: "note" },
  ],
};

const CODE: [string, string, number, string] = ["code", "auto.action.code", 1, "success"];
const TAG: [string, string, number, string] = ["code#1", "auto.action.add_tag", 1, "success"];
const NOTE1: [string, string, number, string] = ["code#2", "auto.action.add_note", 1, "success"];
const WAIT: [string, string, number, string] = ["wait", "auto.control.wait", 1, "success"];
const NOTE: [string, string, number, string] = ["note", "auto.action.add_note", 2, "success"];

/** Ten days of history, heavier lately; minutes ago are spread so each day gets a few. */
function history(): SeedRun[] {
  const runs: SeedRun[] = [];
  for (let day = 0; day < 10; day++) {
    const perDay = 2 + ((day * 7) % 5);
    for (let k = 0; k < perDay; k++) {
      const agoMinutes = day * 1440 + 5 + k * 37;
      const pick = (day + k) % 6;
      if (pick === 0)
        runs.push({
          status: "failed",
          agoMinutes,
          steps: [CODE, TAG, ["code#2", "auto.action.add_note", 1, "failed"]],
        });
      else if (pick === 1)
        runs.push({
          status: "partial",
          agoMinutes,
          steps: [CODE, TAG, NOTE1, WAIT, ["note", "auto.action.add_note", 2, "failed"]],
        });
      else if (pick === 2 && day < 3)
        runs.push({
          status: "waiting",
          agoMinutes,
          steps: [CODE, TAG, NOTE1, ["wait", "auto.control.wait", 1, "waiting"]],
          waitAt: { nodeId: "wait", nodeType: "auto.control.wait", inMinutes: 60 + k * 30 },
        });
      else if (pick === 3) runs.push({ status: "cancelled", agoMinutes, steps: [CODE, TAG, NOTE1, WAIT] });
      else runs.push({ status: "succeeded", agoMinutes, steps: [CODE, TAG, NOTE1, WAIT, NOTE] });
    }
  }
  return runs;
}

test.use({ viewport: { width: 1440, height: 900 } });

test("the dashboard charts seeded history, and its numbers open the filtered runs; an automation's insights draw the funnel on the canvas", async ({
  page,
}) => {
  await signIn(page, "admin", { then: null });
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const automationId = await publishViaApi(page.request, NAME, graph);
  const seeded = history();
  await seedHistory(automationId, seeded);

  await page.goto("/dashboard");
  await expect(page.getByText("Counting your own automations' runs")).toBeVisible();
  // The chart is drawn in the browser, with a bar per outcome and day; its numbers are in a table too.
  const chart = page.getByTestId("outcome-chart");
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(chart.locator(".recharts-legend-item-text")).toContainText(["Succeeded"]);
  const table = page.getByRole("table", { name: "Runs per day in the last 7 days, by outcome" });
  await expect(table.getByRole("row")).toHaveCount(8);
  await expect(page.getByTestId("busiest").getByRole("link", { name: NAME })).toBeVisible();
  await expect(page.getByTestId("failed-runs").getByRole("link", { name: NAME }).first()).toBeVisible();
  await expect(page.getByTestId("next-resumes")).toContainText("At Wait 2 days, resumes in");
  const failedStat = page.getByTestId("stat-failed");
  const failedCount = Number((await failedStat.locator("p").nth(1).textContent())?.replace(/\D/g, ""));
  expect(failedCount).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/dashboard.png", fullPage: true });

  // A number opens the runs list filtered the same way.
  await failedStat.click();
  await expect(page).toHaveURL(/\/runs\?/);
  const params = new URL(page.url()).searchParams;
  expect(Object.fromEntries(params)).toEqual({
    status: "failed_or_partial",
    from: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    to: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    platform: "mine",
  });
  await expect(page.getByLabel("Made by")).toHaveValue("mine");
  const rows = page.getByTestId("run-row");
  await expect(rows.first()).toContainText(/Failed|Partly failed/);
  await expect(rows.filter({ hasText: NAME }).first()).toBeVisible();
  expect(await rows.count()).toBe(Math.min(failedCount, 25));
  await page.screenshot({ path: "test-results/runs-from-dashboard.png" });
  // Built-in: the platform's own jobs only (none ran here: the e2e server runs no schedules).
  await page.getByLabel("Made by").selectOption("builtin");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/platform=builtin/);
  await expect(rows.filter({ hasText: NAME })).toHaveCount(0);

  // The automation's Insights tab: the funnel as badges on the read-only canvas, and as a list.
  await page.goto(`/automations/${automationId}/insights`);
  await expect(page.getByRole("link", { name: "Insights", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const canvas = page.getByTestId("funnel-canvas");
  await expect(canvas.locator(".react-flow__node")).toHaveCount(4);
  const week = seeded.filter((r) => r.agoMinutes < 6 * 1440);
  const list = page.getByTestId("funnel-list");
  await expect(list.getByRole("listitem")).toHaveCount(4);
  const trigger = canvas.locator(".react-flow__node").filter({ hasText: "Shipment delivered" });
  await expect(trigger).toContainText(/\d+ runs/);
  await expect(canvas.locator(".react-flow__node").filter({ hasText: "Wait" })).toContainText(/\d+ runs/);
  await expect(page.getByTestId("outcome-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("waiting-node")).toContainText("Wait 2 days");
  expect(
    Number((await page.getByTestId("fact-runs").locator("a").textContent())?.replace(/\D/g, "")),
  ).toBeGreaterThanOrEqual(week.length);
  await page.screenshot({ path: "test-results/automation-insights.png", fullPage: true });

  await page.getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/days=30$/);
  await expect(page.getByTestId("fact-runs").locator("a")).toHaveText(String(seeded.length));
  await expect(trigger).toContainText(`${seeded.length} runs`);
  await page.screenshot({ path: "test-results/automation-insights-30.png", fullPage: true });

  // Later specs must not see this flow run.
  const paused = await page.request.post(`/api/v1/automations/${automationId}/pause`);
  expect(paused.ok(), await paused.text()).toBe(true);
});
