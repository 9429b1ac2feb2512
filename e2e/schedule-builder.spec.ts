import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

// Issue 25, items 3 and 4: a schedule set as a sentence (cron only in the Advanced view), an
// audience built from labelled fields, and zones that start on the shop's (Paris in the demo),
// never the browser's. Each test builds its own draft automation; nothing is published.

const FIRE_IN_PARIS = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4}, 09:00 (CET|CEST)$/;

/** A new blank draft named `name`, opened in the editor on its Settings tab; its id. */
async function openBlank(page: Page, name: string): Promise<string> {
  await page.goto("/automations/new");
  const id = await startBlank(page, name);
  await page.getByRole("tab", { name: "Settings" }).click();
  return id;
}

/** The draft's params of the step of `type`, as saved on the server. */
async function savedParams(page: Page, id: string, type: string): Promise<unknown> {
  const reply = await page.request.get(`/api/v1/automations/${id}`);
  expect(reply.ok(), await reply.text()).toBe(true);
  const body = (await reply.json()) as { draftGraph: { nodes: { type: string; params: unknown }[] } };
  return body.draftGraph.nodes.find((node) => node.type === type)?.params;
}

test("an editor sets a schedule as a sentence, reads it as cron, and builds its audience", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 2600 });
  await signIn(page, "editor");
  const id = await openBlank(page, "E2E schedule builder");
  await page
    .getByRole("complementary", { name: "Steps" })
    .getByRole("button", { name: /^On a schedule/ })
    .click();
  const panel = page.getByRole("tabpanel");

  // Weekdays at 9:00, said back as a sentence, fired at 09:00 in the shop's zone.
  await panel.getByLabel("Runs").selectOption({ label: "Weekdays (Mon–Fri)" });
  await panel.getByLabel("At", { exact: true }).fill("09:00");
  await expect(panel.getByTestId("schedule-sentence")).toHaveText(
    "Every weekday (Monday to Friday) at 09:00, Paris time.",
  );
  await expect(panel.getByRole("columnheader", { name: "Shop time (Paris)" })).toBeVisible();
  const fires = panel.getByTestId("schedule-next-fires").getByRole("row");
  await expect(fires).toHaveCount(5);
  for (const cell of await fires.locator("td:first-child").all()) {
    await expect(cell).toHaveText(FIRE_IN_PARIS);
    await expect(cell).not.toHaveText(/^(Sat|Sun)/);
  }
  await expect(panel).not.toContainText(/\d{4}-\d{2}-\d{2}T/);

  // The same schedule, as cron.
  await panel.getByLabel("Advanced (cron)").check();
  await expect(panel.getByLabel("Cron expression")).toHaveValue("0 9 * * 1-5");
  await expect(panel.getByTestId("cron-words")).toHaveText(
    "Every weekday (Monday to Friday) at 09:00, Paris time.",
  );

  // The zone is searched by city; "Use the shop's zone" brings Paris back.
  const zone = panel.getByLabel("Time zone", { exact: true });
  await expect(zone).toHaveValue("Europe/Paris");
  await panel.getByLabel("Search time zones").fill("tokyo");
  await zone.selectOption("Asia/Tokyo");
  await expect(panel.getByTestId("cron-words")).toHaveText(/Tokyo time\.$/);
  await panel.getByRole("button", { name: "Use the shop's zone" }).click();
  await expect(zone).toHaveValue("Europe/Paris");
  await panel.getByLabel("As a sentence").check();

  // An audience from labelled fields; the live count follows it.
  await panel.getByLabel("One run for each matching customer").check();
  await panel.getByLabel("Accepts marketing").selectOption({ label: "Yes" });
  const count = panel.getByTestId("schedule-audience-size");
  await expect(count).toHaveText(/^\d+ customers? match/);
  const marketing = await count.textContent();
  await panel.getByLabel("Orders", { exact: true }).fill("2");
  await expect(panel.getByTestId("audience-words")).toHaveText(
    "Customers who accept marketing, with at least 2 orders.",
  );
  await expect(count).toHaveText(/^\d+ customers? match/);
  await expect(count).not.toHaveText(marketing ?? "");

  await expect
    .poll(() => savedParams(page, id, "auto.trigger.schedule"))
    .toEqual({
      cron: "0 9 * * 1-5",
      timezone: "Europe/Paris",
      audience: { acceptsMarketing: true, minOrdersCount: 2 },
    });

  const axe = await new AxeBuilder({ page }).include('[role="tabpanel"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await panel.screenshot({ path: "test-results/screens/schedule-builder.png" });
});

test.describe("in a New York browser, for a Paris shop", () => {
  test.use({ timezoneId: "America/New_York" });

  test("a new schedule and a new Wait until start on the shop's zone: 9:00 is 9:00 in Paris", async ({
    page,
  }) => {
    await signIn(page, "editor");
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      "America/New_York",
    );
    const id = await openBlank(page, "E2E schedule shop zone");
    const palette = page.getByRole("complementary", { name: "Steps" });
    const panel = page.getByRole("tabpanel");

    await palette.getByRole("button", { name: /^On a schedule/ }).click();
    await expect(panel.getByLabel("Time zone", { exact: true })).toHaveValue("Europe/Paris");
    await expect(panel).toContainText("This is the shop's zone.");
    await expect(panel.getByLabel("At", { exact: true })).toHaveValue("09:00");
    await expect(panel.getByTestId("schedule-sentence")).toHaveText("Every day at 09:00, Paris time.");
    await expect(panel.getByTestId("schedule-next-fires").locator("td:first-child").first()).toHaveText(
      FIRE_IN_PARIS,
    );

    await palette.getByRole("button", { name: /^Wait until/ }).click();
    await expect(panel.getByLabel("Time zone", { exact: true })).toHaveValue("Europe/Paris");
    await expect(panel.getByLabel("Time", { exact: true })).toHaveValue("09:00");

    await expect
      .poll(() => savedParams(page, id, "auto.trigger.schedule"))
      .toEqual({ cron: "0 9 * * *", timezone: "Europe/Paris" });
    await expect
      .poll(() => savedParams(page, id, "auto.control.wait_until"))
      .toEqual({ time: "09:00", timezone: "Europe/Paris", weekdays: [1, 2, 3, 4, 5] });
  });
});
