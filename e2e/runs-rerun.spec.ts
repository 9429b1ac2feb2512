import { expect, publishViaApi, signIn, test } from "./helpers";

// Re-run (issue 17): a run that failed because the order had no email is re-run from the step that
// failed once the email is added; the new run is linked to the old one and succeeds. Named to run
// after blank-shop.spec.ts (files run in name order): it starts runs.

//  Order paid ──▶ Send email (to {entity.email}) ──▶ Add tag 'thanked'
const NAME = "E2E re-run after a fix";

test("a failed run re-run from its failed step, after the cause is fixed, succeeds as a linked run", async ({
  page,
}) => {
  await signIn(page, "editor");
  const automationId = await publishViaApi(page.request, NAME, {
    nodes: [
      { id: "paid", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
      {
        id: "mail",
        type: "auto.action.send_email",
        params: {
          purpose: "transactional",
          to: "{entity.email}",
          subject: "Thanks for {entity.number}",
          body: "We got it.",
        },
        position: { x: 0, y: 150 },
      },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "thanked" }, position: { x: 0, y: 300 } },
    ],
    edges: [
      { id: "paid-mail", source: "paid", target: "mail" },
      { id: "mail-tag", source: "mail", target: "tag" },
    ],
  });

  const id = "e2e_rerun_1";
  const order = { number: "#E2E-RERUN-1", total: 30, currency: "EUR" };
  for (const status of ["pending", "paid"]) {
    const res = await page.request.put(`/api/v1/entities/order/${id}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }

  const failedRuns = async () =>
    (
      (await (await page.request.get(`/api/v1/runs?automationId=${automationId}&status=failed`)).json()) as {
        items: unknown[];
      }
    ).items.length;
  await expect.poll(failedRuns, { timeout: 20_000 }).toBe(1);
  await page.goto(`/runs?automationId=${automationId}&status=failed`);
  const row = page.getByTestId("run-row").first();
  await expect(row).toContainText("Failed");
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const failedUrl = page.url();
  await expect(page.getByRole("main")).toContainText("The recipient came out empty");

  // The cause: the order had no email. Add it, then re-run from the step that failed.
  const fixed = await page.request.patch(`/api/v1/entities/order/${id}`, {
    data: { email: "ada@example.com" },
  });
  expect(fixed.ok(), await fixed.text()).toBe(true);
  await page.getByRole("button", { name: "Re-run…" }).click();
  const dialog = page.getByRole("dialog", { name: "Re-run this run" });
  await expect(dialog).toContainText(/Starts a new run of 'E2E re-run after a fix' for Order #E2E-RERUN-1/);
  // The step is named with the run's record as the page read it, before the fix: no email yet, so
  // the token is described; the new run's page below fills it in.
  await dialog
    .getByLabel(/From the failed step, 'Email the order's email: 'Thanks for #E2E-RERUN-1''/)
    .check();
  await expect(dialog.getByRole("status")).toContainText(
    "the step that failed; the steps before it are not taken again",
  );
  await dialog.getByRole("button", { name: "Re-run", exact: true }).click();

  await expect(page).not.toHaveURL(failedUrl);
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const main = page.getByRole("main");
  await expect(main.getByText("Succeeded").first()).toBeVisible({ timeout: 20_000 });
  await expect(main).toContainText("Re-run of");
  await expect(main).toContainText(/an earlier run, from 'Email ada@example\.com/);
  const read = await page.request.get(`/api/v1/entities/order/${id}`);
  expect(((await read.json()) as { tags: string[] }).tags).toContain("thanked");

  // The old run links to its re-run.
  await main.getByRole("link", { name: /an earlier run/ }).click();
  await expect(page).toHaveURL(failedUrl);
  await expect(page.getByRole("main")).toContainText("Re-run as");

  const archived = await page.request.delete(`/api/v1/automations/${automationId}`);
  expect(archived.ok(), await archived.text()).toBe(true);
});
