import { expect, signIn, test } from "./helpers";

test("Settings → API reference shows the API's routes from /api/v1/openapi.json, with nothing fetched from elsewhere", async ({
  page,
}) => {
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    const { hostname, protocol } = new URL(request.url());
    if (/^https?:$/.test(protocol) && hostname !== "127.0.0.1" && hostname !== "localhost")
      elsewhere.push(request.url());
  });
  await signIn(page, "viewer");
  await page.goto("/settings/shop");
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("link", { name: "API reference" })
    .click();
  await page.waitForURL("**/settings/api");

  const reference = page.getByTestId("api-reference");
  await expect(reference.getByText("Record an event, or an array of them").first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(reference.getByText("/api/v1/automations/{id}/publish").first()).toBeAttached();
  await expect(page.getByRole("link", { name: "OpenAPI 3.1 document" })).toHaveAttribute(
    "href",
    "/api/v1/openapi.json",
  );
  expect(elsewhere).toEqual([]);
});
