import { expect, publishViaApi, signIn, test } from "./helpers";

// Named to run after waiting-approvals.spec.ts (files run in name order, on one shared shop). Its
// own automation, triggered by its own order, paused here and left with no pending wait.
test.describe.configure({ mode: "serial" });

//  order_created ──▶ Wait 2 days ──▶ add_tag(doomed)
const flow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "doomed" } },
  ],
  edges: [
    { id: "e0", source: "t", target: "w" },
    { id: "e1", source: "w", target: "tag" },
  ],
};

const PAUSED =
  /^⚠ Will be cancelled when it wakes: the automation is paused — turn it back on before \d{1,2} [A-Z][a-z]{2} \d{2}:\d{2} to keep it\.$/;

test("a paused automation's waiting run says it will be cancelled, and Resume now warns first", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, "E2E doomed in 2 days", flow);
  const order = await page.request.put("/api/v1/entities/order/e2e_doomed_1", {
    data: { number: "#doomed", status: "pending", total: 20, currency: "EUR", email: "doomed@example.com" },
  });
  expect(order.ok(), await order.text()).toBe(true);

  await page.goto(`/runs?automationId=${id}`);
  const row = page.getByTestId("run-row").first();
  await expect(row.getByTestId("run-status")).toHaveText("Waiting", { timeout: 20_000 });
  await expect(row.getByTestId("resumes-in")).toHaveText("Resumes in 2 days");

  const paused = await page.request.post(`/api/v1/automations/${id}/pause`);
  expect(paused.status(), await paused.text()).toBe(200);

  await page.reload();
  await expect(row.getByTestId("wait-fate")).toHaveText(PAUSED);
  await expect(row.getByTestId("resumes-in")).toHaveCount(0);

  // The run page's header and its waits table say the same.
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("wait-fate")).toHaveCount(2);
  for (const line of await page.getByTestId("wait-fate").all()) await expect(line).toHaveText(PAUSED);

  await page.goto("/waiting");
  const waiting = page.getByTestId("waiting-row").filter({ hasText: "E2E doomed in 2 days" });
  await expect(waiting).toHaveCount(1);
  await expect(waiting.getByTestId("wait-fate")).toHaveText(PAUSED);
  // It wakes (to be cancelled) in 2 days; nowhere does it say it resumes.
  await expect(waiting.getByTestId("wakes-in")).toHaveText("Wakes in 2 days");
  await expect(waiting.getByTestId("resumes-in")).toHaveCount(0);

  await waiting.getByRole("button", { name: /^Resume now/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("This run will be cancelled, not resumed: the automation is paused.");
  await expect(dialog.getByRole("button", { name: "Resume now" })).toHaveCount(0);
  // Backing out leaves the wait as it was.
  await dialog.getByRole("button", { name: "Keep waiting" }).click();
  await expect(dialog).toBeHidden();
  await expect(waiting).toHaveCount(1);

  await waiting.getByRole("button", { name: /^Resume now/ }).click();
  await dialog.getByRole("button", { name: "Cancel the run" }).click();
  await expect(waiting).toHaveCount(0, { timeout: 20_000 });

  // The run ends cancelled at wake; its wait does not read as a green "Resumed".
  await page.goto(`/runs?automationId=${id}`);
  await expect(row.getByTestId("run-status")).toHaveText("Cancelled", { timeout: 20_000 });
  await row.getByRole("link").first().click();
  const wait = page.getByTestId("run-wait");
  await expect(wait).toContainText("Cancelled at wake");
  await expect(wait.getByTestId("cancelled-at-wake")).toHaveText(
    "The automation was paused while this run was waiting.",
  );
  await expect(wait).not.toContainText("Resumed");
});
