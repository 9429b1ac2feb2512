import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, putAwayAfterAll, signIn, startBlank, test } from "./helpers";

// Wait for an event, end to end (SPEC §2 "Wait for an event"): the flow is drawn from a blank
// canvas, two orders are paid through the API, one is fulfilled (its run takes 'Received'), the
// other is let go with Resume now from the Waiting list (its run takes 'Timed out' and emails).
//
// Named to run after blank-shop.spec.ts (files run in name order), whose empty Waiting list this
// flow's runs would fill; its automation is archived, its waits cancelled, when it is done.
test.describe.configure({ mode: "serial" });

//  Order paid ──▶ Wait up to 3 days for 'Order fulfilled' (same order)
//                   └─timed_out──▶ Send email to {entity.email}
const NAME = "E2E remind unshipped orders";
const published: string[] = [];
putAwayAfterAll(published);

function canvasNode(page: Page, text: string | RegExp): Locator {
  return page.locator(".react-flow__node").filter({ hasText: text });
}

/** An order created pending and then paid: the status change fires order.paid. */
async function payOrder(request: APIRequestContext, id: string): Promise<void> {
  const order = { number: `#${id}`, total: 42, currency: "EUR", email: `${id}@example.com` };
  for (const status of ["pending", "paid"]) {
    const res = await request.put(`/api/v1/entities/order/${id}`, { data: { ...order, status } });
    expect(res.ok(), await res.text()).toBe(true);
  }
}

interface RunItem {
  id: string;
  status: string;
  entityId: string | null;
}

/** The runs of the flow, by the order they are about (the newest first). */
async function runsByOrder(request: APIRequestContext, automationId: string): Promise<Map<string, RunItem>> {
  const res = await request.get(`/api/v1/runs?automationId=${automationId}&limit=50`);
  expect(res.ok(), await res.text()).toBe(true);
  const { items } = (await res.json()) as { items: RunItem[] };
  const runs = new Map<string, RunItem>();
  for (const run of items) if (run.entityId && !runs.has(run.entityId)) runs.set(run.entityId, run);
  return runs;
}

async function statusOf(request: APIRequestContext, automationId: string, orderId: string) {
  return (await runsByOrder(request, automationId)).get(orderId)?.status ?? "none";
}

test("drawn from a blank canvas: a fulfilled order takes 'Received', another times out with Resume now and is emailed", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "editor");
  await page.goto("/automations/new");
  const automationId = await startBlank(page, NAME);
  published.push(automationId);

  const palette = page.getByRole("complementary", { name: "Steps" });
  const config = page.getByRole("tabpanel");
  await palette.getByRole("button", { name: "Order paid" }).click();
  await palette.getByRole("button", { name: "Wait for event", exact: true }).click();

  // The event by name, found by a word of it; the same order; three days.
  await config.getByLabel("Search events").fill("fulfil");
  await config.getByLabel("Event", { exact: true }).selectOption({ label: "Order fulfilled" });
  await expect(config.getByRole("radio", { name: "About the same record" })).toBeChecked();
  await expect(config.getByRole("radio", { name: "A field of the event equals a value" })).not.toBeChecked();
  await config.getByLabel("Unit").selectOption("days");
  await config.getByLabel("Time limit").fill("3");
  await expect(canvasNode(page, "Wait up to 3 days for 'Order fulfilled'")).toBeVisible();

  // The email hangs from 'Timed out', through its "+"; 'Received' leads nowhere.
  await page
    .getByRole("button", {
      name: /^Add a step after 'Wait up to 3 days for 'Order fulfilled'' \(Timed out\)$/,
    })
    // By keyboard: the exits of a node low on the canvas can sit under the minimap.
    .press("Enter");
  await palette.getByRole("button", { name: "Send email" }).click();
  await config
    .locator('[data-param="subject"]')
    .locator("input, textarea")
    .first()
    .fill("Your order {entity.number} is on its way soon");
  await config
    .locator('[data-param="body"]')
    .locator("input, textarea")
    .first()
    .fill("Thanks for waiting: it ships soon.");
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  // The wait's exits read in words on the canvas; the email hangs from 'Timed out'.
  const waitNode = canvasNode(page, "Wait up to 3 days for 'Order fulfilled'");
  await expect(waitNode).toContainText("Received");
  await expect(waitNode).toContainText("Timed out");
  // Saved as drawn: the wait's only connection leaves by 'timed_out', to the email.
  await expect
    .poll(async () => {
      const draft = await page.request.get(`/api/v1/automations/${automationId}`);
      const { draftGraph } = (await draft.json()) as {
        draftGraph: {
          nodes: { id: string; type: string }[];
          edges: { source: string; sourceHandle: string }[];
        };
      };
      const wait = draftGraph.nodes.find((n) => n.type === "auto.control.wait_for_event");
      return draftGraph.edges.filter((e) => e.source === wait?.id).map((e) => e.sourceHandle);
    })
    .toEqual(["timed_out"]);

  // A dry run cannot know whether the order will be fulfilled: it says how long it would wait,
  // for what, and follows 'Timed out' to the email, as after an approval.
  await page.getByRole("tab", { name: "Dry run" }).click();
  const dry = page.getByRole("tabpanel");
  await dry.getByRole("searchbox").fill("1001");
  await dry.getByRole("radio", { name: /#1001/ }).check();
  await dry.getByRole("button", { name: "Run dry run" }).click();
  await expect(dry).toContainText("Would wait up to 3 days for 'Order fulfilled' about the same record");
  await expect(dry).toContainText("then follow 'Timed out'");
  await expect(dry).toContainText("A dry run cannot know whether an event will come");
  await expect(dry).toContainText("Subject: Your order #1001 is on its way soon");

  await page.getByRole("tab", { name: /Issues/ }).click();
  await expect(page.getByText("Ready to publish")).toBeVisible();
  await expect(page.getByText(/^Draft saved/)).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await page
    .getByRole("dialog", { name: /Publish version 1/ })
    .getByRole("button", { name: "Publish" })
    .click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();

  // Two orders paid: both runs wait for their own order's fulfilment.
  await payOrder(page.request, "e2e_ev_shipped");
  await payOrder(page.request, "e2e_ev_late");
  for (const id of ["e2e_ev_shipped", "e2e_ev_late"])
    await expect.poll(() => statusOf(page.request, automationId, id), { timeout: 20_000 }).toBe("waiting");

  // One is fulfilled: its run wakes and takes 'Received'; the other keeps waiting.
  const fulfilled = await page.request.patch("/api/v1/entities/order/e2e_ev_shipped", {
    data: { status: "fulfilled" },
  });
  expect(fulfilled.ok(), await fulfilled.text()).toBe(true);
  await expect
    .poll(() => statusOf(page.request, automationId, "e2e_ev_shipped"), { timeout: 20_000 })
    .toBe("succeeded");
  expect(await statusOf(page.request, automationId, "e2e_ev_late")).toBe("waiting");

  // The Waiting list says what the other waits for, in words, and Resume now asks first.
  await page.goto(`/automations/${automationId}/waiting`);
  const row = page.getByTestId("waiting-row").filter({ hasText: "e2e_ev_late" });
  await expect(row.getByTestId("waiting-for")).toHaveText(
    "Waiting for Order fulfilled on Order #e2e_ev_late",
  );
  await expect(row.getByTestId("times-out-in")).toContainText("Times out in 3 days");
  await expect(page.getByTestId("waiting-row")).toHaveCount(1);
  await row.getByRole("button", { name: /^Resume now/ }).click();
  const dialog = page.getByRole("dialog", { name: "Stop waiting for the event?" });
  await expect(dialog).toContainText("The run takes the ‘Timed out’ path now.");
  await dialog.getByRole("button", { name: "Stop waiting" }).click();
  await expect
    .poll(() => statusOf(page.request, automationId, "e2e_ev_late"), { timeout: 20_000 })
    .toBe("succeeded");

  // Each run's page shows its route: Received without the email; Timed out, then the email.
  const runs = await runsByOrder(page.request, automationId);
  await page.goto(`/runs/${runs.get("e2e_ev_shipped")!.id}`);
  const received = page.getByTestId("event-wait-step");
  await expect(received).toHaveAttribute("data-state", "received");
  await expect(received).toContainText(/^Received Order fulfilled at \d{2}:\d{2}/);
  await expect(
    page.getByTestId("run-step").filter({ hasText: "Email e2e_ev_shipped@example.com" }),
  ).toHaveCount(0);
  await expect(page.getByTestId("event-outcome")).toContainText("Received Order fulfilled at");

  await page.goto(`/runs/${runs.get("e2e_ev_late")!.id}`);
  const timedOut = page.getByTestId("event-wait-step");
  await expect(timedOut).toHaveAttribute("data-state", "timed_out");
  await expect(timedOut).toContainText(/Timed out: .+ chose Resume now before Order fulfilled came\./);
  await expect(page.getByRole("region", { name: "After the wait" })).toContainText(
    "Email e2e_ev_late@example.com: 'Your order #e2e_ev_late is on its way soon'",
  );
  await expect(page.getByTestId("event-outcome")).toHaveText("Timed out: went on without Order fulfilled");
});
