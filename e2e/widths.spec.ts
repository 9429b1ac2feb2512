import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { expect, publishViaApi, signIn, test } from "./helpers";

// Issue 25, items 5 and 10: Runs and Waiting fit a laptop (every column on screen, nothing cut, no
// word broken in the middle), the Waiting list's actions and the Dashboard and Insights fit a
// phone, and the chart and the Approvals page pass axe. The first test sets up, through the API,
// two flows that hold runs (a wait and an approval) for orders with long emails, then pauses them
// so the orders later spec files create start no runs of theirs.
test.describe.configure({ mode: "serial" });

//  order_created ──▶ Wait 2 hours ──▶ add_tag(widths-e2e)
const waitFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "hours" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "widths-e2e" } },
  ],
  edges: [
    { id: "e0", source: "t", target: "w" },
    { id: "e1", source: "w", target: "tag" },
  ],
};

//  order_created ──▶ Approval "Review order {entity.number}" ──approved──▶ add_tag(reviewed)
const approvalFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    {
      id: "review",
      type: "auto.control.approval",
      params: {
        title: "Review order {entity.number} before it ships",
        timeoutHours: 72,
        approverRole: "editor",
      },
    },
    { id: "ok", type: "auto.action.add_tag", params: { tag: "reviewed" } },
  ],
  edges: [
    { id: "e0", source: "t", target: "review" },
    { id: "e1", source: "review", target: "ok", sourceHandle: "approved" },
  ],
};

const ORDERS = [
  {
    id: "ord_widths_1",
    number: "#1022",
    total: 65,
    email: "gustav6.lindqvist-andersson@example-webshop.com",
  },
  { id: "ord_widths_2", number: "#1023", total: 1065.5, email: "marie-claire.de-la-fontaine@example.com" },
];

let waitAutomation = "";
let approvalAutomation = "";

test("setup: runs waiting at a wait and at an approval, for orders with long emails", async ({ page }) => {
  await signIn(page, "editor");
  waitAutomation = await publishViaApi(
    page.request,
    "E2E widths: follow up two hours after the order",
    waitFlow,
  );
  approvalAutomation = await publishViaApi(page.request, "E2E widths: review every order", approvalFlow);
  for (const order of ORDERS) {
    const res = await page.request.put(`/api/v1/entities/order/${order.id}`, {
      data: {
        number: order.number,
        status: "pending",
        total: order.total,
        currency: "EUR",
        email: order.email,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  // Both orders wait at both flows' holds once the worker has run the first legs.
  const held = async (path: string) => {
    const res = await page.request.get(path);
    const body = (await res.json()) as { items: { entity: { id: string | null } | null }[] };
    return body.items.filter((item) => item.entity?.id?.startsWith("ord_widths_")).length;
  };
  await expect.poll(() => held("/api/v1/waiting?limit=200"), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect.poll(() => held("/api/v1/approvals?status=pending&limit=200"), { timeout: 20_000 }).toBe(2);
  for (const id of [waitAutomation, approvalAutomation]) {
    const paused = await page.request.post(`/api/v1/automations/${id}/pause`);
    expect(paused.status(), await paused.text()).toBe(200);
  }
});

/** What does not fit in the page's tables: headers off screen, cells cut, words split over lines. */
async function tableProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const screen = document.documentElement.clientWidth;
    const name = (el: Element) => (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60);
    for (const th of document.querySelectorAll("main thead th")) {
      const box = th.getBoundingClientRect();
      if (box.width === 0) continue; // a column dropped at this width
      if (box.left < 0 || box.right > screen + 0.5)
        problems.push(
          `header "${name(th)}" is off screen (${Math.round(box.left)}–${Math.round(box.right)})`,
        );
    }
    for (const table of document.querySelectorAll("main table")) {
      const scroller = table.parentElement!;
      if (scroller.scrollWidth > scroller.clientWidth + 1)
        problems.push(`table "${name(table.querySelector("caption")!)}" scrolls sideways`);
    }
    for (const td of document.querySelectorAll("main tbody td")) {
      if (td.scrollWidth > td.clientWidth + 1) problems.push(`cell "${name(td)}" is cut off`);
      // Every word on one line: a word whose text spans two line boxes was broken in the middle.
      // A hyphen is a place to wrap ("in-" / "flight"), as in print: each part counts as a word.
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? "").matchAll(/[^\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (lines.size > 1) problems.push(`"${match[0]}" is broken over ${lines.size} lines`);
        }
      }
    }
    // Each part of a record's label ("Order #1022", "€65.00", an email) stays on one line.
    for (const part of document.querySelectorAll("main [data-testid=entity-part]")) {
      if (part.getClientRects().length !== 1 || part.getBoundingClientRect().height > 24)
        problems.push(`"${name(part)}" takes more than one line`);
    }
    return problems;
  });
}

for (const width of [1280, 1440]) {
  test(`at ${width} px Runs and Waiting show every column whole`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, "editor", { then: "/runs" });
    await expect(page.getByTestId("run-row").first()).toBeVisible();
    await expect(page.getByTestId("run-row").filter({ hasText: "gustav6.lindqvist" }).first()).toBeVisible();
    expect(await tableProblems(page)).toEqual([]);
    if (width === 1280) {
      mkdirSync("test-results/screens", { recursive: true });
      await page.screenshot({ path: "test-results/screens/runs-1280.png", fullPage: true });
    }

    await page.goto("/waiting");
    await expect(page.getByTestId("waiting-row").filter({ hasText: "marie-claire" }).first()).toBeVisible();
    expect(await tableProblems(page)).toEqual([]);
  });
}

test("on a phone the Waiting list's actions are on screen, and Dashboard and Insights do not scroll sideways", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "editor", { then: "/waiting" });
  const row = page.getByTestId("waiting-row").filter({ hasText: "gustav6.lindqvist" }).first();
  await expect(row).toBeVisible();
  const buttons = row.getByRole("button");
  expect(await buttons.count()).toBeGreaterThan(0);
  for (const button of await buttons.all()) {
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x, await button.innerText()).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await button.innerText()).toBeLessThanOrEqual(390);
  }
  for (const path of ["/waiting", "/dashboard", `/automations/${waitAutomation}/insights`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
});

test("axe finds nothing serious on the Approvals page or on the Dashboard with its chart", async ({
  page,
}) => {
  await signIn(page, "editor", { then: "/approvals" });
  await expect(page.getByTestId("approval-row").filter({ hasText: "#1023" }).first()).toBeVisible();
  const seriousIn = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(await seriousIn()).toEqual([]);

  await page.goto("/dashboard");
  await expect(page.getByTestId("outcome-chart").locator("svg").first()).toBeVisible();
  expect(await seriousIn()).toEqual([]);
});

test("cleanup: the waits set up here are cancelled", async ({ page }) => {
  await signIn(page, "editor");
  for (const id of [waitAutomation, approvalAutomation]) {
    const res = await page.request.post(`/api/v1/automations/${id}/waiting/cancel-all`);
    expect(res.ok(), await res.text()).toBe(true);
  }
});
