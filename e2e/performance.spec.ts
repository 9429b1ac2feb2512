import AxeBuilder from "@axe-core/playwright";
import crypto from "node:crypto";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

/**
 * Issue 50: a message reaches a customer, the customer pays an order, and the automation's
 * Performance tab reads the attributed revenue in the shop's money; the automations list has it in
 * its "Revenue, last 30 days" column. Checked with axe; screenshots at 1280 and 1440 px.
 */

const published: string[] = [];
putAwayAfterAll(published);

const suffix = crypto.randomBytes(3).toString("hex");
const customerId = `e2e-perf-${suffix}`;
const email = `ada.${suffix}@example.com`;

//  customer_created ──▶ mail (send_email, transactional)
const graph = {
  nodes: [
    { id: "t", type: "auto.trigger.customer_created", params: {} },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: {
        to: "{entity.email}",
        subject: `Welcome ${suffix}`,
        body: "Hello.",
        purpose: "transactional",
      },
    },
  ],
  edges: [{ id: "e0", source: "t", target: "mail", sourceHandle: "out" }],
};

test("a paid order after a message shows as attributed revenue on the Performance tab", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "editor");
  const id = await publishViaApi(page.request, `E2E welcome ${suffix}`, graph);
  published.push(id);
  const put = await page.request.put(`/api/v1/entities/customer/${customerId}`, {
    data: { email, name: "Ada Park" },
  });
  expect(put.status(), await put.text()).toBe(201);
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/v1/runs?automationId=${id}`);
      const body = (await res.json()) as { items: { status: string }[] };
      return body.items[0]?.status;
    })
    .toBe("succeeded");
  const order = await page.request.put(`/api/v1/entities/order/e2e-perf-${suffix}`, {
    data: { number: `#P${suffix}`, status: "paid", total: 42.5, currency: "EUR", email, customerId },
  });
  expect(order.status(), await order.text()).toBe(201);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/automations/${id}/performance`);
  await expect(page.getByRole("link", { name: "Performance" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("fact-revenue")).toContainText("€42.50");
  await expect(page.getByTestId("fact-conversions")).toContainText("1");
  await expect(page.getByRole("table", { name: "Conversions and revenue by version" })).toContainText(
    "Version 1",
  );
  await expect(page.getByTestId("revenue-chart")).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
  await page.screenshot({ path: "/tmp/attr-performance-1280.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "/tmp/attr-performance-1440.png", fullPage: true });

  await page.goto("/automations");
  const row = page.getByTestId("automation-row").filter({ hasText: `E2E welcome ${suffix}` });
  await expect(row.getByTestId("automation-revenue")).toHaveText("€42.50");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "/tmp/attr-automations-1280.png" });
});
