import type { APIRequestContext, Page } from "@playwright/test";
import { expect, publishViaApi, signIn, test, DEMO_USERS } from "./helpers";

// Named to run after shell.spec.ts (files run in name order), whose "No runs yet" needs a shop
// without runs. Each test sets up its automations through the API, with the signed-in session,
// and then drives what it checks through the UI.
test.describe.configure({ mode: "serial" });

interface Node {
  id: string;
  type: string;
  params?: Record<string, unknown>;
}

function graph(nodes: Node[], edges: [string, string][]) {
  return {
    nodes: nodes.map((n) => ({ params: {}, ...n })),
    edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })),
  };
}

async function putOrder(request: APIRequestContext, id: string) {
  const res = await request.put(`/api/v1/entities/order/${id}`, {
    data: { number: `#${id}`, status: "pending", total: 20, currency: "EUR", email: `${id}@example.com` },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function putCustomer(request: APIRequestContext, id: string) {
  const res = await request.put(`/api/v1/entities/customer/${id}`, {
    data: { email: `${id}@example.com`, name: `Customer ${id}` },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Waits until `count` pending waits exist for the entity (the worker runs the first leg). */
async function pendingWaits(request: APIRequestContext, entityId: string, count: number) {
  await expect
    .poll(
      async () => {
        const res = await request.get("/api/v1/waiting?limit=200");
        const body = (await res.json()) as { items: { entity: { id: string | null } }[] };
        return body.items.filter((w) => w.entity.id === entityId).length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
}

/** Opens the run list of one automation and then its only (newest) run for `entityId`. */
async function openRun(page: Page, automationId: string, entityId: string) {
  await page.goto(`/runs?automationId=${automationId}&domain=order&entityId=${entityId}`);
  const row = page.getByTestId("run-row").first();
  await expect(row).toBeVisible();
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
}

//  order_created ──▶ Wait 2 hours ──▶ add_tag(followed-up)
const waitFlow = graph(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "hours" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "followed-up" } },
  ],
  [
    ["t", "w"],
    ["w", "tag"],
  ],
);

let waitAutomation = "";

test("a waiting run shows its badge and when it resumes; Resume now finishes it live", async ({ page }) => {
  await signIn(page, "editor");
  waitAutomation = await publishViaApi(page.request, "E2E follow-up in 2 hours", waitFlow);
  await putOrder(page.request, "e2e_wait_1");

  await page.goto(`/runs?automationId=${waitAutomation}`);
  const row = page.getByTestId("run-row").first();
  await expect(row.getByTestId("run-status")).toHaveText("Waiting");
  const resumes = row.getByTestId("resumes-in");
  await expect(resumes).toHaveText("Resumes in 2 hours");
  // The exact time, in the viewer's zone, is on hover.
  await expect(resumes).toHaveAttribute("title", /\d{4}, \d{1,2}:\d{2} (AM|PM)/);
  await expect(row.getByRole("link", { name: "e2e_wait_1" })).toHaveAttribute("href", "/orders/e2e_wait_1");
  await expect(row).toContainText("order.created");
  await expect(row).toContainText("v1");

  await row.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Run of E2E follow-up in 2 hours");
  await expect(page.getByTestId("run-status").first()).toHaveText("Waiting");
  // A marker on the window proves the page is never reloaded.
  await page.evaluate(() => Object.assign(window, { stillHere: true }));
  await page.getByRole("button", { name: /^Resume now/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Succeeded", { timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await expect(page.getByRole("region", { name: "After the wait" })).toContainText("Add tag");
  // The wait says who ended it and how early.
  await expect(page.getByTestId("run-wait")).toContainText(
    /Resumed early by .+, 1 hour 59 minutes before it was due\./,
  );
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("run-wait").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/resumed-early-${width}.png` });
  }
});

test("a cancelled run shows its reason on the run and in the list", async ({ page }) => {
  await signIn(page, "editor");
  await putOrder(page.request, "e2e_cancel_1");
  await openRun(page, waitAutomation, "e2e_cancel_1");
  await expect(page.getByTestId("run-status").first()).toHaveText("Waiting");
  await page.getByRole("button", { name: /^Cancel wait:/ }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this wait?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel wait" }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Cancelled");
  await expect(page.getByTestId("run-reason")).toHaveText(`Cancelled by ${DEMO_USERS.editor.email}.`);
  await expect(page.getByTestId("run-step").first()).toContainText(
    `Why skipped: Cancelled by ${DEMO_USERS.editor.email}.`,
  );

  await page.goto(`/runs?automationId=${waitAutomation}&status=cancelled`);
  const row = page.getByTestId("run-row").first();
  await expect(row.getByTestId("run-status")).toHaveText("Cancelled");
  await expect(row).toContainText(`Cancelled by ${DEMO_USERS.editor.email}.`);
});

test("a two-leg run lists both legs and the node that ran twice, each with its own key", async ({ page }) => {
  await signIn(page, "editor");
  //  order_created ──▶ add_tag(twice) ◀── Wait 1 hour ◀── order_created   (add_tag runs in both legs)
  const id = await publishViaApi(
    page.request,
    "E2E two legs",
    graph(
      [
        { id: "t", type: "auto.trigger.order_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "twice" } },
        { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
      ],
      [
        ["t", "tag"],
        ["t", "w"],
        ["w", "tag"],
      ],
    ),
  );
  await putOrder(page.request, "e2e_legs_1");
  await openRun(page, id, "e2e_legs_1");
  await page.getByRole("button", { name: /^Resume now/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Succeeded", { timeout: 20_000 });

  const legs = page.getByTestId("run-leg");
  await expect(legs).toHaveCount(2);
  await expect(page.getByRole("region", { name: "From the trigger" })).toBeVisible();
  await expect(page.getByRole("region", { name: "After the wait" })).toBeVisible();
  const keys = await page
    .getByTestId("run-step")
    .evaluateAll((els) => els.map((el) => el.getAttribute("data-step-key")));
  expect(keys).toEqual(["tag#1", "w#1", "tag#2"]);
  await expect(page.getByText("run 2 of this step")).toBeVisible();
  await expect(page.getByRole("list", { name: "Path taken" }).getByRole("listitem")).toHaveCount(3);
});

test("filters and keyset pages narrow and walk the runs list", async ({ page }) => {
  await signIn(page, "editor");
  //  customer_created ──▶ add_tag(welcomed): only this automation reacts to new customers.
  const name = "E2E welcome customers";
  await publishViaApi(
    page.request,
    name,
    graph(
      [
        { id: "t", type: "auto.trigger.customer_created" },
        { id: "tag", type: "auto.action.add_tag", params: { tag: "welcomed" } },
      ],
      [["t", "tag"]],
    ),
  );
  for (let i = 1; i <= 27; i++) await putCustomer(page.request, `e2e_cus_${i}`);

  await page.goto("/runs");
  await page.getByLabel("Automation").selectOption({ label: name });
  await page.getByLabel("Status").selectOption("succeeded");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/automationId=.*status=succeeded/);
  const rows = page.getByTestId("run-row");
  await expect(rows).toHaveCount(25, { timeout: 20_000 });
  for (const text of await rows.allTextContents()) expect(text).toContain(name);
  const firstPage = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-run-id")));

  await page.getByRole("link", { name: /Next page/ }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(2);
  const secondPage = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-run-id")));
  expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
  await expect(page.getByText("End of the list")).toBeVisible();
  // The filters survive paging.
  await expect(page.getByLabel("Status")).toHaveValue("succeeded");

  await page.getByLabel("Entity type").selectOption("customer");
  await page.getByLabel("Entity id").fill("e2e_cus_7");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole("link", { name: "e2e_cus_7" })).toBeVisible();

  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "No runs match these filters" })).toBeVisible();
});

test("the Waiting list cancels all of an automation's waits after confirming, and says why they were dropped", async ({
  page,
}) => {
  await signIn(page, "editor");
  await putOrder(page.request, "e2e_all_1");
  await putOrder(page.request, "e2e_all_2");
  await pendingWaits(page.request, "e2e_all_1", 1);
  await pendingWaits(page.request, "e2e_all_2", 1);
  await page.goto(`/automations/${waitAutomation}/waiting`);
  await expect(page.getByRole("heading", { level: 1, name: "E2E follow-up in 2 hours" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open editor" })).toHaveAttribute(
    "href",
    `/automations/${waitAutomation}`,
  );
  // Every order since the first test started a run of this automation; at least these two wait.
  await expect(page.getByTestId("waiting-row").filter({ hasText: /e2e_all_[12]/ })).toHaveCount(2);

  await page.getByRole("button", { name: "Cancel all waits of E2E follow-up in 2 hours" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Every pending wait of this automation will be cancelled");
  await dialog.getByRole("button", { name: "Cancel all waits" }).click();
  await expect(page.getByText(/^\d+ waits cancelled\.$/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Nothing is waiting" })).toBeVisible();
  await expect(page.getByTestId("dropped-row").first()).toContainText(
    `Cancelled by ${DEMO_USERS.editor.email}.`,
  );
});

test("a viewer sees waiting runs without cancel or resume buttons, and the API refuses them", async ({
  browser,
}) => {
  const editor = await browser.newPage();
  await signIn(editor, "editor");
  await putOrder(editor.request, "e2e_viewer_1");
  await pendingWaits(editor.request, "e2e_viewer_1", 1);
  await editor.close();

  const page = await browser.newPage();
  await signIn(page, "viewer");
  await page.goto("/waiting");
  // Two automations wait on every new order by now; either row will do.
  const row = page.getByTestId("waiting-row").filter({ hasText: "e2e_viewer_1" }).first();
  await expect(row).toBeVisible();
  await expect(row.getByTestId("resumes-in")).toBeVisible();
  await expect(page.getByRole("button", { name: /Resume now|Cancel/ })).toHaveCount(0);

  await row.getByRole("link", { name: /^[0-9a-f]{8}$/ }).click();
  await expect(page.getByTestId("run-status").first()).toHaveText("Waiting");
  await expect(page.getByRole("button", { name: /Resume now|Cancel/ })).toHaveCount(0);

  const waiting = (await (await page.request.get("/api/v1/waiting")).json()) as {
    items: { id: string; entity: { id: string } }[];
  };
  const wait = waiting.items.find((w) => w.entity.id === "e2e_viewer_1")!;
  for (const verb of ["cancel", "resume-now"]) {
    const res = await page.request.post(`/api/v1/waits/${wait.id}/${verb}`);
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      "Viewers can read but not change anything",
    );
  }
  await page.close();
});

test("the outbox previews a flow's email and the tasks list marks a flow's task done", async ({ page }) => {
  await signIn(page, "editor");
  //  order_created ──▶ send_email ──▶ create_task
  await publishViaApi(
    page.request,
    "E2E thank and follow up",
    graph(
      [
        { id: "t", type: "auto.trigger.order_created" },
        {
          id: "mail",
          type: "auto.action.send_email",
          params: {
            purpose: "transactional",
            to: "{entity.email}",
            subject: "Thanks for {entity.number}",
            body: "We got your order {entity.number}.",
          },
        },
        {
          id: "task",
          type: "auto.action.create_task",
          params: { title: "Check order {entity.number}", dueIn: "1d" },
        },
      ],
      [
        ["t", "mail"],
        ["mail", "task"],
      ],
    ),
  );
  await putOrder(page.request, "e2e_mail_1");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Outbox" }).click();
  const email = page.getByTestId("outbox-email").filter({ hasText: "Thanks for #e2e_mail_1" });
  await expect(email).toBeVisible({ timeout: 20_000 });
  await email.getByText("Thanks for #e2e_mail_1").click();
  const preview = email.frameLocator("iframe");
  await expect(preview.getByText("We got your order #e2e_mail_1.")).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
  const task = page.getByTestId("task-row").filter({ hasText: "Check order #e2e_mail_1" });
  await expect(task).toContainText("E2E thank and follow up");
  await task.getByRole("button", { name: "Mark done: Check order #e2e_mail_1" }).click();
  await expect(task).toHaveCount(0);
  await page.getByRole("link", { name: "Done", exact: true }).click();
  await expect(page.getByTestId("task-row").filter({ hasText: "Check order #e2e_mail_1" })).toBeVisible();
});
