import { expect, publishViaApi, signIn, signOut, test } from "./helpers";

// Named to run after shell.spec.ts and the other specs that need a shop without runs or with
// empty lists (files run in name order): it starts a run of its own. It sets up its automations
// through the API, with the signed-in session, and drives archive and restore through the UI.
test.describe.configure({ mode: "serial" });

const NAME = "Archive e2e nudge";

//  order_created ──▶ Wait 2 days ──▶ add_tag(nudged)
const waitFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "nudged" } },
  ],
  edges: [
    { id: "e0", source: "t", target: "w" },
    { id: "e1", source: "w", target: "tag" },
  ],
};

test("an editor archives an automation from the list after reading what happens to its waiting run, finds it under Archived and restores it", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, NAME, waitFlow);
  const order = await page.request.put("/api/v1/entities/order/arc-1", {
    data: { number: "#arc-1", status: "pending", total: 20, currency: "EUR" },
  });
  expect(order.ok(), await order.text()).toBe(true);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/automations/${id}/waiting`);
        return ((await res.json()) as { items: unknown[] }).items.length;
      },
      { timeout: 20_000 },
    )
    .toBe(1);

  await page.goto(`/automations?q=${encodeURIComponent(NAME)}`);
  const row = page.getByTestId("automation-row").filter({ hasText: NAME });
  await expect(row).toContainText("Active");

  // The confirmation is a modal dialog: Cancel has focus, Escape closes it without archiving.
  await row.getByRole("button", { name: `Archive ${NAME}` }).click();
  const dialog = page.getByRole("dialog", { name: `Archive '${NAME}'?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    "It stops for good: 1 run is waiting at 'Wait 2 days'; it will be cancelled when it wakes. Its runs and history are kept.",
  );
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Active");

  await row.getByRole("button", { name: `Archive ${NAME}` }).click();
  await dialog.getByRole("button", { name: "Archive automation" }).click();
  await expect(page.getByText(`'${NAME}' is archived`)).toBeVisible();
  await expect(page.getByRole("heading", { name: "No automations match these filters" })).toBeVisible();

  await page.getByLabel("Status").selectOption("archived");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=archived/);
  const archived = page.getByTestId("automation-row").filter({ hasText: NAME });
  await expect(archived).toContainText("Archived");
  await expect(archived.getByRole("button", { name: `Archive ${NAME}` })).toHaveCount(0);
  await archived.getByRole("button", { name: `Restore ${NAME}` }).click();
  await expect(page.getByText(`'${NAME}' is restored`)).toBeVisible();
  await expect(archived).toHaveCount(0);

  // Restored as paused: nothing runs until someone activates it.
  await page.goto(`/automations?q=${encodeURIComponent(NAME)}`);
  await expect(page.getByTestId("automation-row").filter({ hasText: NAME })).toContainText("Paused");
});

test("an archived automation's editor is read-only with a notice and Restore; viewers get neither button", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, "Archive e2e editor", waitFlow);
  await page.goto(`/automations/${id}`);
  // In the editor, Archive is under the toolbar's More menu.
  await page.getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: "Archive Archive e2e editor" }).click();
  const dialog = page.getByRole("dialog", { name: "Archive 'Archive e2e editor'?" });
  await expect(dialog).toContainText(
    "It stops for good: no runs are waiting. Its runs and history are kept.",
  );
  await dialog.getByRole("button", { name: "Archive automation" }).click();

  await expect(page.getByText("This automation is archived")).toBeVisible();
  await expect(page.getByText("Read-only: archived")).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "More" })).toHaveCount(0);
  await expect(page.getByRole("menuitem", { name: "Archive Archive e2e editor" })).toHaveCount(0);

  await page.getByRole("button", { name: "Restore Archive e2e editor" }).click();
  await expect(page.getByText("'Archive e2e editor' is restored")).toBeVisible();
  await expect(page.getByText("This automation is archived")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish" })).toBeVisible();

  const archived = await page.request.delete(`/api/v1/automations/${id}`);
  expect(archived.status(), await archived.text()).toBe(200);

  await signOut(page);
  await signIn(page, "viewer");
  await page.goto("/automations?status=archived");
  await expect(page.getByTestId("automation-row").filter({ hasText: "Archive e2e editor" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Archive|Restore)\b/ })).toHaveCount(0);
  await page.goto(`/automations/${id}`);
  await expect(page.getByText("This automation is archived")).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Archive|Restore)\b/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "More" })).toHaveCount(0);
  await page.goto("/automations");
  await expect(page.getByRole("button", { name: /^Archive\b/ })).toHaveCount(0);
});
