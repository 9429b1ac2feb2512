import { startStubModel, type StubModel } from "../tests/helpers/ai-stub";
import { expect, signIn, test } from "./helpers";

/*
 * "Describe your automation" against a stub OpenAI-compatible model on 127.0.0.1:3291, the
 * AI_BASE_URL playwright.config.ts gives the web server (read at request time).
 *
 *   order_paid ──▶ Wait 2 days ──▶ send_email(review)
 */

const SENTENCE = "When an order is paid, wait 2 days, then email the customer asking for a review.";
const SPEC = {
  name: "Review request after payment",
  trigger: { type: "auto.trigger.order_paid" },
  steps: [
    { kind: "wait", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
    {
      kind: "action",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject: "How was order {entity.number}?", body: "Tell us." },
    },
  ],
};

let model: StubModel;

test.beforeAll(async () => {
  // A short delay, so "Building…" is there to see.
  model = await startStubModel(() => ({ delayMs: 400, then: JSON.stringify(SPEC) }), 3291);
});

test.afterAll(async () => {
  await model.close();
});

test("a sentence becomes a new draft in the editor, which publishes", async ({ page }) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  await expect(page.getByRole("heading", { name: "Describe your automation" })).toBeVisible();
  await expect(page.getByText("The AI builder is off")).toHaveCount(0);

  // An example fills the box; the merchant's own sentence replaces it.
  await page.getByRole("button", { name: /^When a cart is abandoned/ }).click();
  await expect(page.getByLabel("What should happen?")).toHaveValue(/^When a cart is abandoned/);
  await page.getByLabel("What should happen?").fill(SENTENCE);
  await page.getByRole("button", { name: "Build" }).click();
  await expect(page.getByRole("button", { name: "Building…" })).toBeVisible();

  await page.waitForURL(/\/automations\/[0-9a-f-]{36}\?built=ai$/);
  const note = page.getByRole("status").filter({ hasText: "Drafted from your description" });
  await expect(note).toContainText(SENTENCE);
  await expect(note).toContainText("Assumed:");
  expect(model.requests).toHaveLength(1);

  await expect(page.getByText("Ready to publish")).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish version 1/ });
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByText("Active", { exact: true }).first()).toBeVisible();

  // Later specs start from the demo shop's own automations: this one must not stay on their list.
  const id = /\/automations\/([0-9a-f-]{36})/.exec(page.url())![1];
  const archived = await page.request.delete(`/api/v1/automations/${id}`);
  expect(archived.ok(), await archived.text()).toBe(true);
});
