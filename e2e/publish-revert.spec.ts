import type { APIRequestContext, Page } from "@playwright/test";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

// The publish and revert dialogs say what happens to the runs waiting now, with the in-flight
// policy shown and changeable there; a revert names the old version's policy it brings back.
// One automation, built through the API: v1 (finish on the version they started with) with a run
// parked on its wait, then v2 (cancel).
test.describe.configure({ mode: "serial" });

const WAITS_KEEP =
  "Runs already waiting keep the wait time they were given: editing a Wait step does not move them.";

function waitFlow(tag: string) {
  return {
    nodes: [
      { id: "t", type: "auto.trigger.order_created", params: {} },
      { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "hours" } },
      { id: "tag", type: "auto.action.add_tag", params: { tag } },
    ],
    edges: [
      { id: "e0", source: "t", target: "w" },
      { id: "e1", source: "w", target: "tag" },
    ],
  };
}

async function versions(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/v1/automations/${id}/versions`);
  expect(res.ok(), await res.text()).toBe(true);
  const body = (await res.json()) as { items: { version: number; inFlightPolicy: string }[] };
  return new Map(body.items.map((v) => [v.version, v.inFlightPolicy]));
}

async function saveDraft(request: APIRequestContext, id: string, data: Record<string, unknown>) {
  const res = await request.put(`/api/v1/automations/${id}/draft`, { data });
  expect(res.ok(), await res.text()).toBe(true);
}

async function publish(request: APIRequestContext, id: string) {
  const res = await request.post(`/api/v1/automations/${id}/publish`, { data: { note: "e2e" } });
  expect(res.ok(), await res.text()).toBe(true);
}

async function oneRunWaiting(page: Page, id: string) {
  const order = `e2e_revert_${Date.now()}`;
  const put = await page.request.put(`/api/v1/entities/order/${order}`, {
    data: {
      number: `#${order}`,
      status: "pending",
      total: 20,
      currency: "EUR",
      email: `${order}@example.com`,
    },
  });
  expect(put.ok(), await put.text()).toBe(true);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/automations/${id}/waiting`);
        const body = (await res.json()) as { items?: unknown[]; total?: number };
        return body.total ?? body.items?.length ?? 0;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(1);
}

let automationId = "";

/** What the tests publish, archived with its waits cancelled once they are done. */
const published: string[] = [];
putAwayAfterAll(published);

test("a revert's dialog names the policy it brings back, lets another be kept, and the new version uses it", async ({
  page,
}) => {
  await signIn(page, "editor");
  const created = await page.request.post("/api/v1/automations", {
    data: { name: "E2E revert policy", graph: waitFlow("v1"), inFlightPolicy: "finish_on_started_version" },
  });
  expect(created.status(), await created.text()).toBe(201);
  automationId = ((await created.json()) as { id: string }).id;
  published.push(automationId);
  await publish(page.request, automationId);
  await oneRunWaiting(page, automationId);
  await saveDraft(page.request, automationId, { graph: waitFlow("v2"), inFlightPolicy: "cancel" });
  await publish(page.request, automationId);

  await page.goto(`/automations/${automationId}`);
  await page.getByRole("tab", { name: "Versions" }).click();
  await page.getByRole("button", { name: "Revert to this version (version 1)" }).click();
  const dialog = page.getByRole("dialog", { name: "Revert to version 1?" });
  await expect(dialog.getByTestId("revert-restored-policy")).toHaveText(
    "Version 1 also brings back its policy for waiting runs: “Finish on the version they started with” instead of the current “Cancel waiting runs”. Keep the current one or choose another below.",
  );
  const restored = dialog.getByRole("radio", { name: /Finish on the version they started with/ });
  await expect(restored).toBeChecked();
  await expect(dialog.getByText("(version 1's policy, which the revert brings back)")).toBeVisible();
  await expect(dialog.getByText("(the current policy)")).toBeVisible();
  await expect(dialog.getByTestId("revert-impact")).toContainText("1 run is waiting at 'Wait 2 hours'");
  await expect(dialog).toContainText(WAITS_KEEP);

  await dialog.getByRole("radio", { name: /Move to the latest version/ }).check();
  await expect(dialog.getByRole("radio", { name: /Move to the latest version/ })).toBeChecked();
  await expect(dialog.getByTestId("revert-impact")).toContainText("1 run is waiting");
  await page.screenshot({ path: "test-results/screens/revert-dialog.png" });

  await dialog.getByRole("button", { name: "Revert to version 1" }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Version 3 is live");
  expect((await versions(page.request, automationId)).get(3)).toBe("move_to_latest");
});

test("the publish dialog shows the policy, takes another, and says waiting runs keep their wait time", async ({
  page,
}) => {
  await signIn(page, "editor");
  await saveDraft(page.request, automationId, { graph: waitFlow("v4") });
  await page.goto(`/automations/${automationId}`);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Publish version 4" });
  await expect(dialog.getByTestId("publish-impact")).toContainText("1 run is waiting at 'Wait 2 hours'");
  await expect(dialog.getByTestId("waits-keep-time")).toHaveText(WAITS_KEEP);
  await expect(dialog.getByRole("radio", { name: /Move to the latest version/ })).toBeChecked();
  await dialog.getByRole("radio", { name: /Cancel waiting runs/ }).check();
  await expect(dialog.getByTestId("publish-impact")).toContainText("they will be cancelled when they wake");
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByTestId("editor-notice")).toContainText("Version 4 is live");
  expect((await versions(page.request, automationId)).get(4)).toBe("cancel");
});
