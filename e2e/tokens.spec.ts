import type { Locator, Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

/**
 * Tokens in the editor (SPEC §2 "Templating"): a field says what is wrong with its tokens under
 * itself as the merchant types, previews the text with its tokens filled in, and the dry run shows
 * the email a real run would send, rendered.
 */

/** A settings field by the param it edits, and its text control. */
function field(page: Page, param: string): { wrapper: Locator; control: Locator } {
  const wrapper = page.getByRole("tabpanel").locator(`[data-param="${param}"]`);
  return { wrapper, control: wrapper.locator("input, textarea").first() };
}

test("a send-email step checks and previews its tokens as you type, and the dry run shows the email rendered", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  await startBlank(page);

  const palette = page.getByRole("complementary", { name: "Steps" });
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Send email" }).click();

  await field(page, "to").control.fill("{entity.email}");
  const body = field(page, "body");
  await body.control.fill("Your order {entity.number} of {entity.total | money}.");

  // A customer token written as its own root: the Subject field says so, in validate's words.
  const subject = field(page, "subject");
  await subject.control.fill("Thanks, {customer.name}");
  const message =
    "{customer.name} is not available here: use {entity.customer.name}, the customer of the order.";
  const error = subject.wrapper.getByText(message, { exact: true });
  await expect(error).toBeVisible();
  await expect(subject.control).toHaveAttribute("aria-invalid", "true");
  const errorId = await error.getAttribute("id");
  expect(errorId).toBeTruthy();
  await expect(subject.control).toHaveAttribute("aria-describedby", new RegExp(`(^| )${errorId}( |$)`));
  // The step's badge and the ready issues say the same sentence.
  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(
    page.getByRole("button", { name: new RegExp(message.replace(/[{}.|]/g, "\\$&")) }),
  ).toBeVisible();
  await page.getByRole("tab", { name: "Step" }).click();

  // Fixed, the error goes and the preview reads a sample order's customer.
  await subject.control.fill("Thanks, {entity.customer.name}");
  await expect(subject.control).not.toHaveAttribute("aria-invalid", "true");
  await expect(subject.wrapper.locator("[data-preview]")).toContainText("Thanks, Ada Lovelace");

  await expect(body.wrapper.locator("[data-preview]")).toContainText("Preview with a sample order");
  await expect(body.wrapper.locator("[data-preview]")).toContainText(/Your order #1001 of €65\.00\./);

  // An unknown filter is an error under the field too.
  await body.control.fill("Total: {entity.total | foo}");
  await expect(body.wrapper).toContainText(
    "Unknown filter 'foo' in {entity.total | foo}: use money, date, json, url or raw.",
  );
  await body.control.fill(
    "Dear {entity.customer.name}, your order {entity.number} of {entity.total | money}.",
  );

  // The dry run on a real order: subject and the rendered body, not HTML source.
  await page.getByRole("tab", { name: "Dry run" }).click();
  const panel = page.getByRole("tabpanel");
  await panel.getByRole("searchbox").fill("1001");
  await panel.getByRole("radio", { name: /#1001/ }).check();
  await panel.getByRole("button", { name: "Run dry run" }).click();
  await expect(panel).toContainText("To: bruno1@example.com");
  await expect(panel).toContainText("Subject: Thanks, Bruno Rossi");
  const email = panel.frameLocator('iframe[title^="Preview of the email"]');
  await expect(email.locator("body")).toHaveText("Dear Bruno Rossi, your order #1001 of €18.00.");
  await expect(panel.locator('iframe[title^="Preview of the email"]')).toHaveAttribute("sandbox", "");

  // Back on the step, the preview now reads the order the dry run was tried on.
  await page.getByRole("tab", { name: "Step" }).click();
  await expect(body.wrapper.locator("[data-preview]")).toContainText("Order #1001");
  await expect(body.wrapper.locator("[data-preview]")).toContainText(
    "Dear Bruno Rossi, your order #1001 of €18.00.",
  );
});
