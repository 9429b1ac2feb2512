import AxeBuilder from "@axe-core/playwright";
import crypto from "node:crypto";
import { expect, putAwayAfterAll, signIn, test } from "./helpers";

/**
 * Issue 51, items 3–4: an admin sets quiet hours (around the current hour, so the message falls
 * inside them) and the shop's cap in Settings → Shop; a marketing email to a customer in UTC then
 * waits, and the run page says why and until when, in the customer's and the shop's time. The
 * shop's settings are put back afterwards. Pages checked with axe.
 */

const published: string[] = [];
putAwayAfterAll(published);

const suffix = crypto.randomBytes(3).toString("hex");
const subject = `Evening offer ${suffix}`;
const pad = (n: number) => String(((n % 24) + 24) % 24).padStart(2, "0") + ":00";

//  customer_created ──▶ mail (send_email, marketing)
const graph = {
  nodes: [
    { id: "t", type: "auto.trigger.customer_created", params: {} },
    {
      id: "mail",
      type: "auto.action.send_email",
      params: { to: "{entity.email}", subject, body: "Something new.", purpose: "marketing" },
    },
  ],
  edges: [{ id: "e0", source: "t", target: "mail", sourceHandle: "out" }],
};

let before: unknown = null;
test.afterAll(async ({ browser }) => {
  if (!before) return;
  const page = await browser.newPage();
  await signIn(page, "admin", { then: null });
  await page.request.put("/api/v1/shop/messaging", { data: before });
  await page.close();
});

test("a merchant sets quiet hours and the shop's cap, and reads on a run page why a message waited", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page, "admin", { then: "/settings/shop" });
  const current = (await (await page.request.get("/api/v1/shop/messaging")).json()) as Record<
    string,
    unknown
  >;
  before = { quietHours: current.quietHours, cap: current.cap };

  const hour = new Date().getUTCHours();
  const from = pad(hour - 1);
  const until = pad(hour + 2);
  const form = page.getByRole("form", { name: "Quiet hours and message limits" });
  await form.getByRole("checkbox", { name: "Hold marketing messages during quiet hours" }).check();
  await form.getByLabel("From").fill(from);
  await form.getByLabel("Until").fill(until);
  await form.getByRole("checkbox", { name: /Limit marketing messages per customer/ }).check();
  await form.getByLabel("At most").fill("2");
  await form.getByLabel("Every (hours)").fill("12");
  await form.getByRole("button", { name: "Save limits" }).click();
  await expect(form).toContainText(
    `Saved. Quiet hours ${from}–${until} in each customer's own time; at most 2 marketing messages per customer every 12 hours.`,
  );
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/quiet-settings-${width}.png`, fullPage: true });
  }
  expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

  const created = await page.request.post("/api/v1/automations", {
    data: { name: `E2E offer ${suffix}`, graph },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  published.push(id);
  const publish = await page.request.post(`/api/v1/automations/${id}/publish`, { data: { note: "e2e" } });
  expect(publish.status(), await publish.text()).toBe(200);
  const put = await page.request.put(`/api/v1/entities/customer/e2e-quiet-${suffix}`, {
    data: {
      email: `quiet.${suffix}@example.com`,
      name: "Noa Quiet",
      acceptsMarketing: true,
      timezone: "UTC",
    },
  });
  expect(put.status(), await put.text()).toBe(201);

  let runId = "";
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/runs?automationId=${id}&limit=5`);
        const body = (await res.json()) as { items: { id: string; status: string }[] };
        runId = body.items[0]?.id ?? "";
        return body.items[0]?.status;
      },
      { timeout: 30_000 },
    )
    .toBe("waiting");

  await page.goto(`/runs/${runId}`);
  const why = page.getByText(/^Waiting for quiet hours to end/).first();
  // Past midnight the time carries its day ("00:00 Tue 8 Dec"), as the page says of any other day.
  const sendsAt = hour + 2 >= 24 ? `${until} \\w{3} \\d{1,2} \\w{3}` : until;
  await expect(why).toContainText(
    new RegExp(`\\(${from}–${until}\\): sends at ${sendsAt} in the customer's time \\(UTC\\)`),
  );
  await expect(why).toContainText("in the shop's (");
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/quiet-run-${width}.png`, fullPage: true });
  }
  expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);
});
