import { expect, signIn, startBlank, test } from "./helpers";

test("a webhook trigger's settings show its URL and how to sign a call", async ({ page }) => {
  // An admin: credentials are made by admins (an editor picks them, or types a secret into the trigger).
  await signIn(page, "admin");
  // The signing secret is a credential (Settings → Credentials), chosen by name in the trigger.
  const secretName = `E2E hook secret ${Date.now()}`;
  await page.goto("/settings/credentials");
  await page.getByLabel("Name", { exact: true }).fill(secretName);
  await page.getByLabel("Kind").selectOption({ label: "Webhook signing secret" });
  await page.getByLabel("Value", { exact: true }).fill("s3cret-for-e2e");
  await page.getByRole("button", { name: "Save credential" }).click();
  await expect(page.getByTestId("credential-row").filter({ hasText: secretName })).toContainText("…-e2e");

  await page.goto("/automations/new");
  await startBlank(page);

  await page
    .getByRole("complementary", { name: "Steps" })
    .getByRole("button", { name: "Webhook received" })
    .click();
  const config = page.getByRole("tabpanel");
  const calling = config.getByRole("region", { name: "Calling this webhook" });
  await expect(calling).toContainText(/http:\/\/(localhost|127\.0\.0\.1):\d+\/api\/hooks\/\S+/);
  // A new trigger is signed by default: it asks for a secret before it can be published.
  await expect(calling).toContainText(
    "Choose a signing secret above: this webhook accepts only signed requests",
  );

  await config
    .getByLabel("Signing secret", { exact: true })
    .selectOption({ label: `${secretName} (Webhook signing secret, …-e2e)` });
  await expect(calling).toContainText("X-Tillflow-Signature: t=<unix seconds>,v1=");
  await expect(calling).toContainText('openssl dgst -sha256 -hmac "$TILLFLOW_SECRET"');
  await expect(calling).toContainText("process.env.TILLFLOW_SECRET");
  await expect(calling).not.toContainText("s3cret-for-e2e");
  await expect(calling.getByRole("button", { name: "Copy URL" })).toBeVisible();
});
