import AxeBuilder from "@axe-core/playwright";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

/*
 * An automation's Held tab, as an editor uses it: a per-record cap set in plain words, a second
 * payment of the same order held instead of thanked twice, and the held run released by hand.
 */

test.describe.configure({ mode: "serial" });

const published: string[] = [];
putAwayAfterAll(published);

//  order_paid ──▶ add_tag("e2e-thanked")
const thankOnPaid = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {} },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "e2e-thanked" } },
  ],
  edges: [{ id: "e1", source: "t", sourceHandle: "out", target: "tag" }],
};

test("an editor caps an automation per record, watches a held run appear and releases it", async ({
  page,
}) => {
  await signIn(page, "editor", { then: null });
  const id = await publishViaApi(page.request, "E2E thank once per order", thankOnPaid);
  published.push(id);
  await page.goto(`/automations/${id}/held`);
  await expect(page.getByRole("heading", { name: "No runs are held" })).toBeVisible();
  await expect(page.getByText("No caps: every run starts.")).toBeVisible();

  await page.getByLabel("Runs per record").fill("1");
  await page.getByLabel("Hours per record").fill("16");
  await page.getByRole("button", { name: "Save caps" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toContainText(
    "At most 1 run per record every 16 hours.",
  );

  // The same order is paid twice: the first run starts, the second is held.
  for (const n of [1, 2]) {
    const paid = await page.request.post("/api/v1/events", {
      data: { id: `e2e-caps-${Date.now()}-${n}`, type: "order.paid", domain: "order", entityId: "ord_1001" },
    });
    expect(paid.ok(), await paid.text()).toBe(true);
  }
  const row = page.getByTestId("held-row");
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await expect(row).toContainText("already ran once for this record in the last 16 hours");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await row.getByRole("button", { name: /^Release run / }).click();
  await expect(page.getByText("The run was released and starts now.")).toBeVisible();
  await expect(page.getByTestId("held-row")).toHaveCount(0);

  // Both runs took their action, the released one exactly once.
  await page.getByRole("navigation", { name: "Automation" }).getByRole("link", { name: "Runs" }).click();
  await expect(page.getByTestId("run-row")).toHaveCount(2);
  await expect(page.getByTestId("run-row").filter({ hasText: "Succeeded" })).toHaveCount(2, {
    timeout: 15_000,
  });
});

test("a viewer reads the caps and the held list but cannot change them", async ({ page }) => {
  await signIn(page, "viewer", { then: null });
  await page.goto(`/automations/${published[0]}/held`);
  await expect(page.getByText("At most 1 run per record every 16 hours.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save caps" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Release/ })).toHaveCount(0);
});
