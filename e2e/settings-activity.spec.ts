import { expect, signIn, signOut, test, DEMO_USERS } from "./helpers";

//  order_created ──▶ add_tag(audited)
const tagFlow = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "a", type: "auto.action.add_tag", params: { tag: "audited" } },
  ],
  edges: [{ id: "e0", source: "t", target: "a" }],
};

test("an admin sees the publish they just did in Settings → Activity, and can filter by kind", async ({
  page,
}) => {
  await signIn(page, "admin");
  const name = `E2E audited ${Date.now()}`;
  const created = await page.request.post("/api/v1/automations", { data: { name, graph: tagFlow } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const published = await page.request.post(`/api/v1/automations/${id}/publish`, {
    data: { note: "first e2e version" },
  });
  expect(published.status(), await published.text()).toBe(200);

  await page.goto("/settings/shop");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/settings\/activity$/);
  const row = page.getByTestId("activity-row").first();
  await expect(row).toContainText(
    `${DEMO_USERS.admin.email} published '${name}' version 1 — 'first e2e version'`,
  );
  // Relative time, and the absolute time in the shop's zone beside it.
  await expect(row.locator("time")).toContainText(/^just now · /);

  // Filtering by another kind hides it; the automations kind shows it again.
  const filters = page.getByRole("navigation", { name: "Filter activity" });
  await filters.getByRole("link", { name: "Users" }).click();
  await expect(page).toHaveURL(/kind=users/);
  await expect(page.getByTestId("activity-row").filter({ hasText: name })).toHaveCount(0);
  await filters.getByRole("link", { name: "Automations" }).click();
  await expect(page.getByTestId("activity-row").filter({ hasText: name })).toHaveCount(1);

  // The API reports the same entry to admins.
  const api = await page.request.get(`/api/v1/audit?subjectId=${id}`);
  expect(api.status()).toBe(200);
  const body = (await api.json()) as { items: { actor: string; action: string; detail: { note: string } }[] };
  expect(body.items[0]).toMatchObject({
    actor: DEMO_USERS.admin.email,
    action: "automation.published",
    detail: { note: "first e2e version" },
  });
});

test("a viewer is told only admins can see the activity", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/settings/activity");
  await expect(
    page.getByRole("heading", { name: "Only an admin can see the shop's activity." }),
  ).toBeVisible();
  await expect(page.getByTestId("activity-row")).toHaveCount(0);
  const api = await page.request.get("/api/v1/audit");
  expect(api.status()).toBe(403);
  await signOut(page);
});
