import type { Locator, Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

// The code step in the editor (SPEC §2 "Code step"): the script is written in a code editor with
// completions and an inline syntax check, tried on a real order with "Run on a record", and
// published.
//  Order paid ──▶ Run code (tag 'vip' when total > 10, note, return { total, number })
const NAME = "E2E code step tags paid orders";

function canvasNode(page: Page, text: string | RegExp): Locator {
  return page.locator(".react-flow__node").filter({ hasText: text });
}

/** Replaces the script with `lines`, typed as a person would (Escape closes any completion first). */
async function typeScript(
  page: Page,
  editor: Locator,
  lines: string[],
  { close = true } = {},
): Promise<void> {
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  for (const [index, line] of lines.entries()) {
    if (index > 0) {
      await page.keyboard.press("Escape");
      await page.keyboard.press("Enter");
    }
    await page.keyboard.type(line);
  }
  if (close) await page.keyboard.press("Escape");
}

test("an editor writes a code step with completions and a syntax check, runs it on an order, and publishes it", async ({
  page,
}) => {
  // It types four scripts key by key, as a merchant would: about 25 s on 2 cores, near the 30 s default.
  test.slow();
  await signIn(page, "editor");
  await page.goto("/automations/new");
  await startBlank(page);
  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByLabel("Name").fill(NAME);

  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Run code" }).click();
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);

  const panel = page.getByRole("tabpanel");
  // The editor is the field's text box, named by its label.
  const script = panel.getByRole("textbox", { name: "Script" });
  await expect(script).toBeVisible();
  await expect(panel.locator(".cm-lineNumbers")).toBeVisible();

  // A syntax error: the lint marks its line, and the field says it as the ready issue does.
  await typeScript(page, script, ["// Broken", "const = 1;"]);
  const problem = panel.locator('[data-param="source"]').getByText(/Script has a syntax error on line 2/);
  await expect(problem).toBeVisible();
  await expect(script).toHaveAttribute("aria-invalid", "true");
  const problemId = await problem.getAttribute("id");
  await expect(script).toHaveAttribute("aria-describedby", new RegExp(`(^| )${problemId}( |$)`));
  await expect(panel.locator(".cm-lintRange-error")).toHaveCount(1);

  // Completions: actions. lists the script actions with their signatures; entity. the order's fields.
  await typeScript(page, script, ["// Tag big paid orders", "actions."], { close: false });
  const completions = page.locator(".cm-tooltip-autocomplete");
  await expect(completions).toContainText("tag");
  await expect(completions).toContainText("actions.email(to, subject, body)");
  await page.keyboard.press("Escape");
  await page.keyboard.type("x; entity.");
  await expect(completions).toContainText("total");
  await expect(completions).toContainText("customer");
  await page.keyboard.press("Escape");

  // Keyboard users are not trapped: Tab indents, Escape then Tab moves on.
  await page.keyboard.press("Tab");
  await expect(script).toBeFocused();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  await expect(script).not.toBeFocused();

  // An exception: Run on a record says where, and the editor highlights that line.
  await typeScript(page, script, ["// Tag big paid orders", 'actions.tag("x");', 'throw new Error("boom");']);
  await expect(script).not.toHaveAttribute("aria-invalid", "true");
  await panel.getByRole("button", { name: "Run on a record" }).click();
  await panel.getByRole("searchbox").fill("1001");
  await panel.getByRole("radio", { name: /#1001/ }).check();
  await panel.getByRole("button", { name: "Run script" }).click();
  await expect(panel.getByText("The script failed on line 3")).toBeVisible();
  await expect(panel).toContainText("boom (line 3).");
  await expect(panel.locator(".cm-errorLine")).toHaveCount(1);
  await expect(panel.locator(".cm-errorLine")).toContainText('throw new Error("boom");');

  await typeScript(page, script, [
    "// Tag big paid orders",
    'if (entity.total > 10) actions.tag("vip");',
    'actions.note("Checked " + entity.number + " " + event.type);',
    "return { total: entity.total, number: entity.number, status: entity.status };",
  ]);
  await expect(panel.locator(".cm-errorLine")).toHaveCount(0);
  await panel.getByRole("button", { name: "Run script" }).click();
  const result = panel.locator("[data-code-preview]");
  await expect(result).toContainText("Would take 2 actions");
  await expect(result).toContainText("Would add tag 'vip' to order #1001.");
  await expect(result).toContainText("Would add a note to order #1001: “Checked #1001 order.paid”");
  await expect(result).toContainText('"number": "#1001"');
  // The order is seen as the trigger's event sees it: paid.
  await expect(result).toContainText('"status": "paid"');
  await expect(result).toContainText(/Took \d+ ms\./);
  await expect(canvasNode(page, "Run code: Tag big paid orders")).toBeVisible();

  // Nothing happened to the order.
  const order = await page.request.get("/api/v1/entities/order/ord_1001");
  expect(((await order.json()) as { tags: string[] }).tags).not.toContain("vip");

  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByText("Ready to publish")).toBeVisible();
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish version 1/ });
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();

  // Left active, the flow would also run on the orders later specs pay. (Firing a code step is
  // e2e/runs-code-step.spec.ts: a run made in this file, before blank-shop.spec.ts in name order,
  // would break that file's "No runs yet".)
  const id = page.url().split("/").pop()!;
  const archived = await page.request.delete(`/api/v1/automations/${id}`);
  expect(archived.ok(), await archived.text()).toBe(true);
});
