import type { APIRequestContext } from "@playwright/test";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

// Names where they matter: "Start blank" asks for one (and stores nothing until given), the
// header shows it and renames it in place, and an unnamed draft is named as it is published.

async function countNamed(request: APIRequestContext, q: string): Promise<number> {
  const res = await request.get(`/api/v1/automations?q=${encodeURIComponent(q)}&limit=100`);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { items: unknown[] }).items.length;
}

/** What the tests publish, archived with its waits cancelled once they are done. */
const published: string[] = [];
putAwayAfterAll(published);

test("Start blank asks for a name first; closing that leaves no draft behind", async ({ page }) => {
  await signIn(page, "editor");
  const untitledBefore = await countNamed(page.request, "Untitled automation");

  await page.goto("/automations/new");
  await page.getByRole("button", { name: "Start blank" }).click();
  const dialog = page.getByRole("dialog", { name: "Name your automation" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/automations\/new$/);
  expect(await countNamed(page.request, "Untitled automation")).toBe(untitledBefore);

  await page.getByRole("button", { name: "Start blank" }).click();
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await expect(dialog).toContainText("Give the automation a name.");
  await dialog.getByLabel("Name").fill("E2E named at the start");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E named at the start");
  expect(await countNamed(page.request, "Untitled automation")).toBe(untitledBefore);
});

test("the header renames the automation: Enter keeps the name, Escape puts the old one back", async ({
  page,
}) => {
  await signIn(page, "editor");
  const created = await page.request.post("/api/v1/automations", { data: { name: "E2E rename me" } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  published.push(id);
  await page.goto(`/automations/${id}`);
  const title = page.getByRole("heading", { level: 1 });
  await expect(title).toHaveText("E2E rename me");

  await page.getByRole("button", { name: "Rename" }).click();
  const field = page.getByRole("textbox", { name: "Automation name" });
  await expect(field).toBeFocused();
  await field.fill("E2E renamed in the header");
  await page.keyboard.press("Enter");
  await expect(title).toHaveText("E2E renamed in the header");
  await expect(page.getByRole("button", { name: "Rename" })).toBeFocused();
  await expect(page.getByText(/^Draft saved/)).toBeVisible();

  await page.getByRole("button", { name: "Rename" }).click();
  await field.fill("Not this one");
  await page.keyboard.press("Escape");
  await expect(title).toHaveText("E2E renamed in the header");

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E renamed in the header");
});

test("publishing an Untitled automation asks for its name in the publish dialog", async ({ page }) => {
  await signIn(page, "editor");
  const graph = {
    nodes: [
      { id: "t", type: "auto.trigger.order_created", params: {} },
      { id: "tag", type: "auto.action.add_tag", params: { tag: "named" } },
    ],
    edges: [{ id: "e0", source: "t", target: "tag" }],
  };
  const created = await page.request.post("/api/v1/automations", {
    data: { name: "Untitled automation", graph },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  published.push(id);
  await page.goto(`/automations/${id}`);

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Publish version 1" });
  const name = dialog.getByLabel("Name", { exact: true });
  await expect(name).toBeFocused();
  await expect(dialog).toContainText("Publishing turns this automation on");
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(dialog).toContainText("Give the automation a name before publishing it.");
  await name.fill("E2E named at publish");
  await expect(dialog).toContainText("Publishing turns 'E2E named at publish' on");
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Version 1 is live");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E named at publish");
  const versions = await page.request.get(`/api/v1/automations/${id}/versions`);
  const body = (await versions.json()) as { items: { version: number; name: string }[] };
  expect(body.items.find((v) => v.version === 1)?.name).toBe("E2E named at publish");
});
