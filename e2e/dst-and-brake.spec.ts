import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signIn, startBlank, test } from "./helpers";

// Issue 53, items 4 and 5: the DST rule is shown, in a sentence, only for a time the zone's clock
// changes skip or repeat (02:30 in Paris), and the emergency brake pauses everything behind a
// dialog that says what it will do, shows a banner on every page, and is released from it.

// The flow editor and axe on a machine shared with builds take longer than the default 30 s.
test.describe.configure({ timeout: 120_000 });

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test("the DST sentence appears for a 02:30 Paris schedule, and the rule chosen is saved", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 2600 });
  await signIn(page, "editor");
  await page.goto("/automations/new");
  const id = await startBlank(page, "E2E DST rule");
  await page.getByRole("tab", { name: "Settings" }).click();
  await page
    .getByRole("complementary", { name: "Steps" })
    .getByRole("button", { name: /^On a schedule/ })
    .click();
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("Runs").selectOption({ label: "Every day" });

  // 09:00 never falls in a clock change: no rule to choose.
  await panel.getByLabel("At", { exact: true }).fill("09:00");
  await expect(panel.getByTestId("schedule-sentence")).toHaveText("Every day at 09:00, Paris time.");
  await expect(panel.getByTestId("dst-config")).toHaveCount(0);

  // 02:30 does not exist on the spring-forward Sunday and happens twice in autumn.
  await panel.getByLabel("At", { exact: true }).fill("02:30");
  await expect(panel.getByTestId("dst-gap-sentence")).toHaveText(
    /^On \d{1,2} March \d{4} 02:30 does not exist in Paris: the run moves to 03:00\.$/,
  );
  await expect(panel.getByTestId("dst-repeat-sentence")).toHaveText(
    /^On \d{1,2} October \d{4} 02:30 happens twice in Paris: the run happens once, at the first\.$/,
  );
  await expect(panel.getByTestId("schedule-dst-day")).toContainText("does not exist in Paris");
  await expect(panel.getByLabel("Run when the skipped hour ends")).toBeChecked();
  await axeClean(page);
  await page.screenshot({ path: "/tmp/brake-dst-1280.png", fullPage: false });

  await panel.getByLabel("Skip that day").check();
  await expect(panel.getByTestId("dst-gap-sentence")).toHaveText(
    /does not exist in Paris: the run is skipped that day\.$/,
  );
  await panel.getByLabel("Run both times").check();
  await expect(panel.getByTestId("dst-repeat-sentence")).toHaveText(
    /happens twice in Paris: the run happens at both\.$/,
  );
  await expect
    .poll(async () => {
      const reply = await page.request.get(`/api/v1/automations/${id}`);
      const body = (await reply.json()) as { draftGraph: { nodes: { type: string; params: unknown }[] } };
      return body.draftGraph.nodes.find((node) => node.type === "auto.trigger.schedule")?.params;
    })
    .toMatchObject({ cron: "30 2 * * *", dst: { gap: "skip", repeat: "twice" } });
  await page.setViewportSize({ width: 1440, height: 1400 });
  await page.screenshot({ path: "/tmp/brake-dst-1440.png", fullPage: false });
});

test.describe("the emergency brake", () => {
  // Never leave the demo shop braked for the specs after this one.
  test.afterEach(async ({ page }) => {
    await page.request.post("/api/v1/automations/resume-all");
  });

  test("an admin pulls it from the list after reading what it will do, sees the banner everywhere, and releases it", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await signIn(page, "admin");
    const state = await page.request.get("/api/v1/automations/brake");
    const { impact } = (await state.json()) as { impact: { activeAutomations: number; sentence: string } };

    await page.getByRole("button", { name: "Pause all automations" }).click();
    const dialog = page.getByRole("dialog", { name: "Pause every automation now?" });
    await expect(dialog.getByTestId("brake-impact")).toHaveText(impact.sentence);
    await expect(dialog.getByTestId("brake-impact")).toHaveText(
      /^\d+ active automations?; \d+ runs? waiting will hold until you resume; (schedules will not fire|no schedule is due to fire)\.$/,
    );
    await axeClean(page);
    await page.screenshot({ path: "/tmp/brake-dialog-1280.png" });
    await dialog.getByRole("button", { name: "Pause all" }).click();

    const banner = page.getByTestId("brake-banner");
    await expect(banner).toContainText("The emergency brake is on.");
    await expect(banner).toContainText(`${impact.activeAutomations} automation`);
    await expect(page.getByRole("button", { name: "Pause all automations" })).toHaveCount(0);
    await page.screenshot({ path: "/tmp/brake-banner-1280.png" });
    // On every page, for everyone.
    await page.goto("/dashboard");
    await expect(page.getByTestId("brake-banner")).toBeVisible();
    await axeClean(page);
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto("/settings/shop");
    await expect(page.getByTestId("brake-banner")).toBeVisible();
    await expect(page.getByText("The brake is on: release it from the banner")).toBeVisible();
    await page.screenshot({ path: "/tmp/brake-settings-1440.png" });

    await page.getByTestId("brake-banner").getByRole("button", { name: "Release the brake" }).click();
    await page
      .getByRole("dialog", { name: "Release the emergency brake?" })
      .getByRole("button", { name: "Resume automations" })
      .click();
    await expect(page.getByTestId("brake-banner")).toHaveCount(0);
    const after = await page.request.get("/api/v1/automations/brake");
    expect(((await after.json()) as { impact: { activeAutomations: number } }).impact.activeAutomations).toBe(
      impact.activeAutomations,
    );
  });

  test("an editor sees neither the switch nor a way to pull it", async ({ page }) => {
    await signIn(page, "editor");
    await expect(page.getByRole("button", { name: "Pause all automations" })).toHaveCount(0);
    const refused = await page.request.post("/api/v1/automations/pause-all");
    expect(refused.status()).toBe(403);
  });
});
