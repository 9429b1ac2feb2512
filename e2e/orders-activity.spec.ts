import { expect, signIn, test } from "./helpers";

// Files run in name order on one shared shop: this one runs after blank-shop.spec.ts (whose empty
// states it would spoil) and before orders.spec.ts, whose "first order in the list" may then be
// this order, so it has line items like the seeded ones. It creates its own automation and order.

//  order_created ──▶ add_tag(vip-e2e)
const tagFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "a", type: "auto.action.add_tag", params: { tag: "vip-e2e" } },
  ],
  edges: [{ id: "e0", source: "t", target: "a" }],
};

test("a run that tags an order reads 'Order #…' and shows on the order's Activity, linked to the run", async ({
  page,
}) => {
  await signIn(page, "editor");
  const created = await page.request.post("/api/v1/automations", {
    data: { name: "E2E VIP tagger", graph: tagFlow },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: automationId } = (await created.json()) as { id: string };
  const published = await page.request.post(`/api/v1/automations/${automationId}/publish`, {
    data: { note: "e2e" },
  });
  expect(published.status(), await published.text()).toBe(200);
  const order = await page.request.put("/api/v1/entities/order/e2e_act_1", {
    data: {
      number: "#7301",
      status: "paid",
      total: 65,
      currency: "EUR",
      email: "ada-e2e@example.com",
      lineItems: [{ sku: "MUG", title: "Mug", quantity: 1, price: 65 }],
    },
  });
  expect(order.ok(), await order.text()).toBe(true);

  // The runs list names the order as merchants do, and finds it by its number.
  await page.goto("/runs");
  await page.getByLabel("Entity id, number or email").fill("#7301");
  await page.getByRole("button", { name: "Apply" }).click();
  const row = page.getByTestId("run-row").first();
  await expect(row.getByTestId("run-status")).toHaveText("Succeeded", { timeout: 20_000 });
  const entity = row.getByRole("link", { name: "Order #7301 · €65.00 · ada-e2e@example.com" });
  await expect(entity).toHaveAttribute("href", "/orders/e2e_act_1");
  const runId = await row.getAttribute("data-run-id");

  // Nothing matches an unknown number, and the empty state says what was searched.
  await page.getByLabel("Entity id, number or email").fill("#7399");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("heading", { name: "No runs for '#7399'" })).toBeVisible();

  // The order's Activity shows the run and the tag it added, each linking to the run.
  await page.goto("/orders/e2e_act_1");
  const activity = page.getByRole("list", { name: "Activity" });
  const runItem = activity.getByTestId("activity").filter({ hasText: "E2E VIP tagger" }).filter({
    hasText: "Succeeded",
  });
  await expect(runItem).toHaveCount(1);
  const tagItem = activity.getByTestId("activity").filter({ hasText: "Added tag 'vip-e2e'" });
  await expect(tagItem).toContainText("of 'E2E VIP tagger'");
  await expect(tagItem.locator("time")).toHaveAttribute("title", /\d{4}/);
  await tagItem.getByRole("link", { name: /^run / }).click();
  await expect(page).toHaveURL(`/runs/${runId}`);

  // The run page links back to the order by its label.
  await expect(
    page.getByRole("link", { name: "Order #7301 · €65.00 · ada-e2e@example.com" }),
  ).toHaveAttribute("href", "/orders/e2e_act_1");
});
