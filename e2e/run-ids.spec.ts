import { expect, publishViaApi, signIn, test } from "./helpers";

// Issue 25, item 2: every run showed the same short id (month-partitioned ids share their start),
// so runs could not be told apart or found. Two runs of one flow, made through the API, must show
// different ids on Runs and Waiting, and the Runs filter must find each by the id it shows.
test.describe.configure({ mode: "serial" });

//  order_created ──▶ Wait 2 hours ──▶ add_tag(run-ids-e2e)
const waitFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "hours" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "run-ids-e2e" } },
  ],
  edges: [
    { id: "e0", source: "t", target: "w" },
    { id: "e1", source: "w", target: "tag" },
  ],
};

const ORDERS = ["ord_run_ids_1", "ord_run_ids_2"];
let automationId = "";

test("two runs show different ids on Runs and Waiting, and the filter finds each by it", async ({ page }) => {
  await signIn(page, "editor");
  automationId = await publishViaApi(page.request, "E2E run ids", waitFlow);
  for (const [i, id] of ORDERS.entries()) {
    const res = await page.request.put(`/api/v1/entities/order/${id}`, {
      data: { number: `#88${i}`, status: "pending", total: 10, currency: "EUR" },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  // Paused once both runs exist, so the orders later spec files create start none of its runs.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/runs?automationId=${automationId}&status=waiting`);
        return ((await res.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 20_000 },
    )
    .toBe(2);
  const paused = await page.request.post(`/api/v1/automations/${automationId}/pause`);
  expect(paused.status(), await paused.text()).toBe(200);

  await page.goto(`/runs?automationId=${automationId}`);
  const rows = page.getByTestId("run-row");
  await expect(rows).toHaveCount(2);
  const runs: { id: string; shown: string }[] = [];
  for (const row of await rows.all()) {
    runs.push({
      id: (await row.getAttribute("data-run-id"))!,
      shown: (await row.getByRole("link").first().innerText()).trim(),
    });
  }
  expect(runs[0]!.shown).not.toBe(runs[1]!.shown);
  for (const run of runs) expect(run.id.endsWith(run.shown), `${run.id} shown as ${run.shown}`).toBe(true);

  await page.goto(`/automations/${automationId}/waiting`);
  const waiting = page.getByTestId("waiting-row");
  await expect(waiting).toHaveCount(2);
  const shownOnWaiting = await waiting.getByRole("link", { name: /^[0-9a-f]{8}$/ }).allInnerTexts();
  expect(shownOnWaiting.sort()).toEqual(runs.map((r) => r.shown).sort());

  for (const run of runs) {
    await page.goto("/runs");
    await page.getByLabel("Run", { exact: true }).fill(run.shown);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`run=${run.shown}`));
    await expect(rows).toHaveCount(1);
    await expect(rows).toHaveAttribute("data-run-id", run.id);
  }

  // Cancelled, so the shop's Waiting list is as the other spec files expect it.
  const cancelled = await page.request.post(`/api/v1/automations/${automationId}/waiting/cancel-all`);
  expect(cancelled.ok(), await cancelled.text()).toBe(true);
});
