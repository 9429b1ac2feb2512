import { expect, putAwayAfterAll, signIn, startBlank, test } from "./helpers";

/**
 * What a step hands on, in the editor (SPEC §2 "What a step hands on"): after a "Send HTTP request"
 * step, a condition's Field list offers the answer's status code and "a field of the JSON answer"
 * (a path to finish, such as steps.h.body.points), and a later step's token picker offers the
 * same outputs by their labels.
 */

const drafts: string[] = [];
putAwayAfterAll(drafts);

test("a condition after an HTTP step picks a field of its JSON answer; the token picker offers the answer's outputs", async ({
  page,
}) => {
  await signIn(page, "editor");
  await page.goto("/automations/new");
  drafts.push(await startBlank(page, `E2E step outputs ${Date.now()}`));

  const palette = page.getByRole("complementary", { name: "Steps" });
  const config = page.getByRole("tabpanel");
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Send HTTP request" }).click();
  await config.getByLabel("URL").fill("https://loyalty.example/points/{entity.id}");

  await palette.getByRole("button", { name: "Check a field" }).click();
  const fieldSelect = config.getByLabel("Field");
  const fromSteps = fieldSelect.locator('optgroup[label="From earlier steps"] option');
  await expect(fromSteps.first()).toHaveText(/^The answer's status code \(step '\w+'\)$/);
  await expect(fromSteps).toContainText([/^A field of the JSON answer \(step '\w+'\)…$/]);

  // The status code is a whole path; a field of the answer is a start to finish by typing.
  const status = (await fromSteps.first().textContent()) ?? "";
  await fieldSelect.selectOption({ label: status });
  const stepId = /step '(\w+)'/.exec(status)![1]!;
  await expect(fieldSelect).toHaveValue(`steps.${stepId}.status`);

  await fieldSelect.selectOption({ label: `A field of the JSON answer (step '${stepId}')…` });
  const path = config.getByLabel("Path");
  await expect(path).toHaveValue(`steps.${stepId}.body.`);
  await path.pressSequentially("points");
  await config.getByLabel("Operator").selectOption("gt");
  await config.getByLabel("Value").fill("100");
  await expect(
    page
      .locator(".react-flow__node")
      .filter({ hasText: `Body › Points from step '${stepId}' is greater than` }),
  ).toBeVisible();

  // A step after it: the token picker lists the answer's outputs by what they are.
  await palette.getByRole("button", { name: "Add note" }).click();
  await config.getByRole("button", { name: "Insert token" }).first().click();
  const listbox = page.getByRole("listbox");
  await expect(
    listbox.getByRole("option", { name: new RegExp(`\\{steps\\.${stepId}\\.status\\}`) }),
  ).toContainText("the answer's status code");
  await expect(
    listbox.getByRole("option", { name: new RegExp(`\\{steps\\.${stepId}\\.body\\.\\}`) }),
  ).toContainText("a field of the JSON answer");

  // A token the step does not hand on is named under the field, in the ready issues' words.
  await page.keyboard.press("Escape");
  const body = config.locator('[data-param="body"]');
  await body.locator("textarea, input").first().fill(`Points: {steps.${stepId}.points}`);
  await expect(body).toContainText(`{steps.${stepId}.points} is not something step '${stepId}' hands on`);
});
