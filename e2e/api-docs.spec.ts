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
  // The first group is open; the others open on a click.
  await expect(reference.getByRole("link", { name: /^Create an automation \(a draft\)/ })).toBeVisible({
    timeout: 20_000,
  });
  await reference.getByRole("button", { name: "Open Group - Entities and events" }).click();
  await expect(reference.getByRole("link", { name: /^Record an event, or an array of them/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "OpenAPI 3.1 document" })).toHaveAttribute(
    "href",
    "/api/v1/openapi.json",
  );
  expect(elsewhere).toEqual([]);
});
