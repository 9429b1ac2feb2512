import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

// Issue 50 item 2: a merchant adds a Split to a flow, sets its two branches' weights, reads each
// share, and sees what is left to do (a branch with no step, a weight of 0) — at 1280 px, axe clean.

const created: string[] = [];
putAwayAfterAll(created);

//  order_paid ──▶ add_tag(thanks)
const graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_paid", params: {}, position: { x: 0, y: 0 } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "thanks" }, position: { x: 0, y: 160 } },
  ],
  edges: [{ id: "e1", source: "t", sourceHandle: "out", target: "tag" }],
};

function canvasNode(page: Page, text: string | RegExp): Locator {
  return page.locator(".react-flow__node").filter({ hasText: text });
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("at 1280 px, a Split with two branches shows each share and what is left to connect", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, "editor");
  const reply = await page.request.post("/api/v1/automations", {
    data: { name: "E2E thank-you test", graph },
  });
  expect(reply.status(), await reply.text()).toBe(201);
  const { id } = (await reply.json()) as { id: string };
  created.push(id);
  await page.goto(`/automations/${id}`);
  await expect(page.locator(".react-flow__node")).toHaveCount(2);

  // Put the split on the line from the trigger: its first branch keeps the line, the second is free.
  await canvasNode(page, "Order paid")
    .getByRole("button", { name: /^Insert a step after/ })
    .click();
  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Split (A/B test)" }).click();
  const split = canvasNode(page, /Split customers/);
  await expect(split).toContainText("Split customers: Group A 50 % · Group B 50 %");
  await split.click();

  const config = page.getByRole("tabpanel");
  const shares = config.getByTestId("split-share");
  await expect(shares).toHaveText(["Group A gets 50 %", "Group B gets 50 %"]);
  await config.getByLabel("Weight").nth(0).fill("80");
  await config.getByLabel("Weight").nth(1).fill("20");
  await expect(shares).toHaveText(["Group A gets 80 %", "Group B gets 20 %"]);
  await expect(split).toContainText("Group A 80 % · Group B 20 %");
  // Each branch is an exit of its own, labelled on the card.
  await expect(split.getByRole("button", { name: /\(Group B\)$/ })).toBeVisible();

  // Group B leads nowhere yet, and a weight of 0 is refused, in words.
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(
    page.getByRole("button", { name: /'Group B' leads nowhere: connect it to a step\./ }),
  ).toBeVisible();
  await page.getByRole("tab", { name: "Step", exact: true }).click();
  await config.getByLabel("Weight").nth(1).fill("0");
  await expect(config).toContainText("'Group B' has a weight of 0; give it a weight above 0.");
  await expect(shares).toHaveText(["Group A gets 100 %", "Group B gets 0 %"]);
  await expect(page.getByRole("button", { name: "Publish" })).toBeDisabled();
  await config.getByLabel("Weight").nth(1).fill("20");

  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "/tmp/split-editor-1280.png" });
});
