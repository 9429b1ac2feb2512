import { expect, publishViaApi, signIn, test } from "./helpers";

//  order_created ──▶ later(3d, step check-in)
//  later(check-in) ──▶ create_task(Check in on {event.then.name})
//  later(follow-up) ──▶ create_task(Follow up)
const laterFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "ask", type: "auto.action.later", params: { when: "3d", step: "check-in", then: {} } },
    { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
    {
      id: "task",
      type: "auto.action.create_task",
      params: { title: "Check in on {event.then.name}" },
    },
    { id: "back2", type: "auto.trigger.later", params: { step: "follow-up" } },
    { id: "task2", type: "auto.action.create_task", params: { title: "Follow up" } },
  ],
  edges: [
    { id: "e0", source: "t", target: "ask" },
    { id: "e1", source: "back", target: "task" },
    { id: "e2", source: "back2", target: "task2" },
  ],
};

test("Try it later… runs the chosen later step now, handed the JSON typed, and opens its run", async ({
  page,
}) => {
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, "E2E try it later", laterFlow);
  await page.goto(`/automations/${id}`);

  await page.getByRole("button", { name: "Try it later…" }).click();
  const dialog = page.getByRole("dialog", { name: "Try a later step of ‘E2E try it later’ now" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Later step").selectOption("check-in");
  const then = dialog.getByLabel("Handed back (then)");

  // Not an object: said at once, and the run cannot be started.
  await then.fill("[1, 2]");
  await expect(dialog.getByRole("alert")).toHaveText(/'then' must be a JSON object/);
  await expect(dialog.getByRole("button", { name: "Run it now" })).toBeDisabled();

  // Keyboard only: type the JSON, Tab to the submit button, Enter.
  await then.fill('{ "name": "Ada", "visits": 3 }');
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await then.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Run it now" })).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const handed = page.getByTestId("handed-back-then");
  await expect(handed).toContainText('"name": "Ada"');
  await expect(handed).toContainText('"visits": 3');
  await expect(page.getByRole("heading", { name: "Handed back" })).toBeVisible();
  await expect(page.getByTestId("run-step").filter({ hasText: "Check in on" })).toBeVisible();
  await expect(page.getByText("Succeeded").first()).toBeVisible();
  const step = page.getByTestId("run-step").first();
  await expect(step).toContainText("Create task");
});
