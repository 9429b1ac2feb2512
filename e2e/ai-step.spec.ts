import { startStubModel, type StubModel } from "../tests/helpers/ai-stub";
import { expect, putAwayAfterAll, signIn, startBlank, test } from "./helpers";

/*
 * The AI step in the editor, against a stub OpenAI-compatible model on 127.0.0.1:3291, the
 * AI_BASE_URL playwright.config.ts gives the web server (read at request time):
 *
 *   Order paid ──▶ Ask AI: sort into refund, damaged, other
 *
 * Drawn from the palette, tried once with the model on order #1001, and dry-run (which asks
 * nothing). Never published: no run is made.
 */

const NAME = "E2E AI step sorts orders";
const created: string[] = [];
putAwayAfterAll(created);

let model: StubModel;

test.beforeAll(async () => {
  model = await startStubModel(() => JSON.stringify({ category: "damaged" }), 3291);
});

test.afterAll(async () => {
  await model.close();
});

test("an editor adds an AI step from the palette, tries it with the model, and the dry run shows the prompt without asking", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  created.push(await startBlank(page, NAME));

  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Ask AI" }).click();
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);

  const panel = page.getByRole("tabpanel");
  await expect(panel.getByLabel("Task")).toHaveValue("classify");
  await panel
    .getByLabel("Prompt")
    .fill("Order {entity.number} for {entity.total}: why did the customer ask for a refund?");
  await panel.getByLabel("Categories").fill("refund, damaged, other");
  await expect(
    page.locator(".react-flow__node").filter({ hasText: "Ask AI: sort into refund, damaged, other" }),
  ).toBeVisible();

  // Try with the model: asks once, on a real order, and shows what came back.
  await panel.getByRole("button", { name: "Try with the model" }).click();
  await panel.getByRole("searchbox").fill("1001");
  await panel.getByRole("radio", { name: /#1001/ }).check();
  await panel.getByRole("button", { name: "Ask the model" }).click();
  const tried = panel.locator("[data-ai-try]");
  await expect(tried).toContainText("Order #1001 for");
  await expect(tried).toContainText("Category");
  await expect(tried).toContainText("damaged");
  expect(model.requests).toHaveLength(1);

  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByText("Ready to publish")).toBeVisible();

  // The dry run says what it would ask, tokens filled in, and asks nothing.
  await page.getByRole("tab", { name: "Dry run" }).click();
  const dry = page.getByRole("tabpanel");
  await dry.getByRole("searchbox").fill("1001");
  await dry.getByRole("radio", { name: /#1001/ }).check();
  await dry.getByRole("button", { name: "Run dry run" }).click();
  await expect(dry).toContainText("Nothing was changed — this is a dry run.");
  await expect(dry).toContainText(
    /Would ask the model: Order #1001 for .*: why did the customer ask for a refund\?/,
  );
  await expect(dry).toContainText("The answer must be one of: refund, damaged, other.");
  expect(model.requests).toHaveLength(1);
});
