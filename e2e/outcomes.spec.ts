import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext } from "@playwright/test";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

// Run outcomes that add up (issue 25, items 1 and 7): a run whose tag worked and whose email
// failed is "Partly failed" and counted with the failures on the dashboard; a run stopped at a
// condition is "Nothing to do" and says which condition; a failed run re-run successfully says so.
// Each test makes its own automation and orders, and checks only its own rows.

interface RunItem {
  id: string;
  status: string;
  actionsTaken: number | null;
}

async function runsOf(request: APIRequestContext, automationId: string): Promise<RunItem[]> {
  const res = await request.get(`/api/v1/runs?automationId=${automationId}`);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { items: RunItem[] }).items;
}

/** Waits for the automation's newest run to end and returns it. */
async function settled(request: APIRequestContext, automationId: string): Promise<RunItem> {
  let run: RunItem | undefined;
  await expect
    .poll(
      async () => {
        run = (await runsOf(request, automationId))[0];
        return run?.status;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^(succeeded|partial|failed|cancelled)$/);
  return run!;
}

async function putOrder(request: APIRequestContext, id: string, fields: Record<string, unknown>) {
  const res = await request.put(`/api/v1/entities/order/${id}`, {
    data: { number: `#${id}`, status: "pending", currency: "EUR", ...fields },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

//  Order created ──▶ Add tag 'thanked' ──▶ Send email (to {entity.email})
const PARTIAL = "E2E thank-you (partly fails)";
const thankYou = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "thanked" } },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: {
        purpose: "transactional",
        to: "{entity.email}",
        subject: "Thanks for {entity.number}",
        body: "We got it.",
      },
    },
  ],
  edges: [
    { id: "e1", source: "t", target: "tag" },
    { id: "e2", source: "tag", target: "mail" },
  ],
};

/** What the tests publish, archived with its waits cancelled once they are done. */
const published: string[] = [];
putAwayAfterAll(published);

test("a partly failed run is counted and listed with the failures, and its successful re-run is said", async ({
  page,
}) => {
  await signIn(page, "editor");
  const automationId = await publishViaApi(page.request, PARTIAL, thankYou);
  published.push(automationId);
  // No email on the order: the tag works, the email fails for good.
  await putOrder(page.request, "e2e_outcome_partial", { total: 30 });
  const run = await settled(page.request, automationId);
  expect(run).toMatchObject({ status: "partial", actionsTaken: 2 });

  await page.goto("/dashboard");
  const stat = page.getByTestId("stat-failed");
  await expect(stat).toContainText("Failed or partly failed, last 7 days");
  await expect(stat).toContainText(/\d+ partly failed/);
  const attention = page.getByTestId("failed-runs").getByRole("listitem").filter({ hasText: PARTIAL });
  await expect(attention.first()).toContainText("Partly failed");
  await expect(attention.first()).toContainText("1 of 2 actions failed.");
  await expect(page.getByText("No failed or partly failed run is waiting for you")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/dashboard-partial.png", fullPage: true });
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="stat-failed"]')
    .include('[data-testid="failed-runs"]')
    .analyze();
  expect(axe.violations).toEqual([]);

  // The count opens every run with a failed action: this partly failed one among them.
  await stat.click();
  await expect(page).toHaveURL(/status=failed_or_partial/);
  await expect(page.getByLabel("Status")).toHaveValue("failed_or_partial");
  const row = page.getByTestId("run-row").filter({ hasText: PARTIAL }).first();
  await expect(row).toContainText("Partly failed");

  // The run page says what failed; once a re-run succeeded, it says that instead, with a link.
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByRole("alert").filter({ hasText: "Some actions failed" })).toContainText(
    "1 of 2 actions failed.",
  );
  const fixed = await page.request.patch("/api/v1/entities/order/e2e_outcome_partial", {
    data: { email: "ada@example.com" },
  });
  expect(fixed.ok(), await fixed.text()).toBe(true);
  const rerun = await page.request.post(`/api/v1/runs/${run.id}/rerun`, { data: {} });
  expect(rerun.status(), await rerun.text()).toBe(201);
  const rerunId = ((await rerun.json()) as { run: { id: string } }).run.id;
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/v1/runs/${rerunId}`)).json()) as RunItem).status,
      {
        timeout: 20_000,
      },
    )
    .toBe("succeeded");
  await page.reload();
  await expect(page.getByText("Some actions failed")).toHaveCount(0);
  const notice = page.getByRole("status").filter({ hasText: "A re-run of this run succeeded" });
  await expect(notice).toContainText("What went wrong here: 1 of 2 actions failed.");
  await page.screenshot({ path: "test-results/screens/run-rerun-succeeded.png" });
  await notice.getByRole("link", { name: "Open the re-run" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${rerunId}$`));
  await expect(page.getByTestId("run-status").first()).toHaveText("Succeeded");
});

//  Order created ──▶ total > 100 ──true──▶ Add tag 'big'   (false: nothing)
const NOTHING = "E2E tag big orders";
const bigOrders = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "big", type: "auto.condition.field", params: { path: "total", operator: "gt", value: 100 } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "big" } },
  ],
  edges: [
    { id: "e1", source: "t", target: "big" },
    { id: "e2", source: "big", sourceHandle: "true", target: "tag" },
  ],
};

test("a run stopped at a condition reads Nothing to do, names the condition, and has its own filter", async ({
  page,
}) => {
  await signIn(page, "editor");
  const automationId = await publishViaApi(page.request, NOTHING, bigOrders);
  published.push(automationId);
  await putOrder(page.request, "e2e_outcome_small", { total: 20 });
  const run = await settled(page.request, automationId);
  expect(run).toMatchObject({ status: "succeeded", actionsTaken: 0 });

  await page.goto(`/runs?automationId=${automationId}`);
  await expect(page.getByTestId("run-row").first().getByTestId("run-status")).toHaveText("Nothing to do");
  await page.getByLabel("Status").selectOption("nothing_to_do");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=nothing_to_do/);
  await expect(page.getByTestId("run-row")).toHaveCount(1);
  await page.getByTestId("run-row").first().getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.id}$`));

  await expect(page.getByTestId("run-status").first()).toHaveText("Nothing to do");
  await expect(page.getByTestId("run-nothing-to-do")).toContainText(
    "Stopped at “Total is greater than 100”: Total is 20, not more than 100.",
  );
  await expect(page.getByTestId("run-nothing-to-do")).toContainText("left out of the success rate");
  await page.screenshot({ path: "test-results/screens/run-nothing-to-do.png" });
  const axe = await new AxeBuilder({ page })
    .include('[role="status"]:has([data-testid="run-nothing-to-do"])')
    .include('[data-testid="run-status"]')
    .analyze();
  expect(axe.violations).toEqual([]);

  // Its automation's Insights: no success rate to speak of, and a "Nothing to do" count.
  await page.goto(`/automations/${automationId}/insights`);
  await expect(page.getByTestId("fact-success")).toContainText("—");
  await expect(page.getByTestId("count-last-7-days-nothing")).toContainText("Nothing to do1");
});
