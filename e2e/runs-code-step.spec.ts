import { expect, publishViaApi, signIn, test } from "./helpers";

// A code step in a real run (SPEC §2 "Code step"): the script runs in the worker's sandbox and
// the actions it asks for are taken as steps of the run, each named after the step that asked.
// Named to run after blank-shop.spec.ts (files run in name order): it starts a run. Writing and
// trying the script in the editor is e2e/code-step.spec.ts.

//  Order paid ──▶ Run code (tag 'vip' when total > 10, note, return { total, number })
const NAME = "E2E code step in a run";
const SOURCE = [
  "// Tag big paid orders",
  'if (entity.total > 10) actions.tag("vip");',
  'actions.note("Checked " + entity.number + " " + event.type);',
  "return { total: entity.total, number: entity.number };",
].join("\n");

test("a paid order runs the script, and the run shows the actions it took as steps", async ({ page }) => {
  await signIn(page, "editor");
  const automationId = await publishViaApi(page.request, NAME, {
    nodes: [
      { id: "paid", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
      { id: "score", type: "auto.action.code", params: { source: SOURCE }, position: { x: 0, y: 150 } },
    ],
    edges: [{ id: "paid-score", source: "paid", target: "score" }],
  });

  const id = "e2e_code_1";
  const order = { number: "#E2E-CODE-1", total: 120, currency: "EUR", email: "code@example.com" };
  for (const status of ["pending", "paid"]) {
    const res = await page.request.put(`/api/v1/entities/order/${id}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  const read = async () =>
    (await (await page.request.get(`/api/v1/entities/order/${id}`)).json()) as {
      tags: string[];
      notes: { body: string }[];
    };
  await expect.poll(async () => (await read()).tags, { timeout: 20_000 }).toContain("vip");
  expect((await read()).notes.map((note) => note.body)).toContain("Checked #E2E-CODE-1 order.paid");

  await page.goto(`/runs?automationId=${automationId}`);
  const row = page.getByTestId("run-row").first();
  await expect(row).toContainText("Succeeded");
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const main = page.getByRole("main");
  await expect(main).toContainText("Run code: Tag big paid orders");
  await expect(main).toContainText("Add tag · action 1 of 'Run code: Tag big paid orders'");
  await expect(main).toContainText("Add note · action 2 of 'Run code: Tag big paid orders'");

  // Later specs pay orders too: this flow must not run on them.
  const archived = await page.request.delete(`/api/v1/automations/${automationId}`);
  expect(archived.ok(), await archived.text()).toBe(true);
});
