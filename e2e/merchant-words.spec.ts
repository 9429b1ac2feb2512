import type { APIRequestContext, Page } from "@playwright/test";
import { expect, publishViaApi, putAwayAfterAll, signIn, test } from "./helpers";

// Issue 25, item 6: no page or email a merchant sees shows a raw token, an internal name or an ISO
// time. A shop with one run of each kind (succeeded, partial, failed, waiting on a delay, waiting
// on an approval, cancelled, a later step, a dry run), every page read and grepped. Its own
// automations ("E2E merchant words …"), each guarded by the order's customer so that an order
// only does something in the automation it was made for.
test.describe.configure({ mode: "serial" });

/** What must never reach a merchant's eyes, each with the name the failure gives it. */
const LEAKS: [string, RegExp][] = [
  ["a raw {entity.…} token", /\{entity\./],
  ["a raw {steps.…} token", /\{steps\./],
  ["the branch name timed_out", /timed_out/],
  ["the field name customerId", /customerId/],
  ["an ISO timestamp", /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
];

function leaksIn(text: string): string[] {
  return LEAKS.flatMap(([name, pattern]) => {
    const match = pattern.exec(text);
    if (!match) return [];
    const at = Math.max(0, match.index - 60);
    return [`${name}: “…${text.slice(at, match.index + 60).replace(/\s+/g, " ")}…”`];
  });
}

/** The visible text of the page at `path` (or the page as it is) has none of the leaks. */
async function expectClean(page: Page, name: string, path?: string) {
  if (path) await page.goto(path);
  await expect(page.getByTestId("signed-in-email")).toBeVisible();
  const text = await page.locator("body").innerText();
  expect(leaksIn(text), `${name} (${page.url()}) shows`).toEqual([]);
}

interface Node {
  id: string;
  type: string;
  params?: Record<string, unknown>;
}

/** order_created ──▶ customer is `customer`? ──true──▶ the rest, from `first`. */
function guarded(customer: string, nodes: Node[], edges: [string, string, string?][]) {
  const all: Node[] = [
    { id: "t", type: "auto.trigger.order_created" },
    {
      id: "guard",
      type: "auto.condition.field",
      params: { path: "customerId", operator: "eq", value: customer },
    },
    ...nodes,
  ];
  return {
    nodes: all.map((n, i) => ({ params: {}, position: { x: 0, y: i * 140 }, ...n })),
    edges: [["t", "guard"] as [string, string, string?], ...edges].map(([source, target, handle], i) => ({
      id: `e${i}`,
      source,
      target,
      ...(handle ? { sourceHandle: handle } : {}),
    })),
  };
}

const mail: Node = {
  id: "mail",
  type: "auto.action.send_email",
  params: {
    purpose: "transactional",
    to: "{entity.email}",
    subject: "Your order {entity.number} is running late",
    body: "Your order of {entity.total | money} is on its way.",
  },
};

const CUSTOMER = "e2e_mw_customer";

async function putOrder(request: APIRequestContext, id: string, customerId: string, email = true) {
  const res = await request.put(`/api/v1/entities/order/${id}`, {
    data: {
      number: `#${id}`,
      status: "pending",
      total: 780,
      currency: "EUR",
      customerId,
      createdAt: "2026-11-30T09:00:00Z",
      lineItems: [{ sku: "MW-1", title: "Mug", quantity: 2, price: 390 }],
      ...(email ? { email: `${id}@example.com` } : {}),
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

interface RunItem {
  id: string;
  status: string;
}

/** The runs of an automation for an order, once `ready` says they are where the test wants them. */
async function runsOf(request: APIRequestContext, automationId: string, order: string, status: string) {
  let runs: RunItem[] = [];
  await expect
    .poll(
      async () => {
        const res = await request.get(
          `/api/v1/runs?automationId=${automationId}&domain=order&entityId=${order}&status=${status}`,
        );
        runs = ((await res.json()) as { items: RunItem[] }).items;
        return runs.length;
      },
      { timeout: 20_000, message: `a ${status} run for ${order}` },
    )
    .toBeGreaterThan(0);
  return runs[0]!;
}

interface WaitItem {
  id: string;
  kind: string;
  runId: string;
  entity: { id: string | null };
}

async function pendingWait(request: APIRequestContext, order: string, kind: string): Promise<WaitItem> {
  let found: WaitItem | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get("/api/v1/waiting?limit=200");
        const items = ((await res.json()) as { items: WaitItem[] }).items;
        found = items.find((w) => w.entity.id === order && w.kind === kind);
        return Boolean(found);
      },
      { timeout: 20_000, message: `a pending ${kind} wait for ${order}` },
    )
    .toBe(true);
  return found!;
}

const ids: Record<string, string> = {};
// Later specs count pending approvals and waiting runs, and create orders of their own: whatever
// happens here, the spec's automations are archived and their waits cancelled afterwards.
putAwayAfterAll(() => Object.values(ids));
const runs: Record<string, string> = {};

test("the shop gets one run of each kind: succeeded, partial, failed, waiting, cancelled and a later step", async ({
  page,
}) => {
  await signIn(page, "editor");
  const api = page.request;

  const customer = await api.put(`/api/v1/entities/customer/${CUSTOMER}`, {
    data: { email: "mw@example.com", name: "Mia Words", createdAt: "2026-11-01T10:00:00Z" },
  });
  expect(customer.ok(), await customer.text()).toBe(true);

  ids.succeed = await publishViaApi(
    api,
    "E2E merchant words succeed",
    guarded(`${CUSTOMER}`, [mail], [["guard", "mail", "true"]]),
  );
  ids.fail = await publishViaApi(
    api,
    "E2E merchant words fail",
    guarded("mw_fail", [mail], [["guard", "mail", "true"]]),
  );
  ids.partial = await publishViaApi(
    api,
    "E2E merchant words partial",
    guarded(
      "mw_partial",
      [mail, { id: "tag", type: "auto.action.add_tag", params: { tag: "mw-partial" } }],
      [
        ["guard", "mail", "true"],
        ["guard", "tag", "true"],
      ],
    ),
  );
  ids.wait = await publishViaApi(
    api,
    "E2E merchant words wait",
    guarded(
      "mw_wait",
      [
        mail,
        { id: "w", type: "auto.control.wait", params: { duration: 2, unit: "days" } },
        { id: "note", type: "auto.action.add_note", params: { body: "Follow up on {entity.number}" } },
      ],
      [
        ["guard", "mail", "true"],
        ["mail", "w"],
        ["w", "note"],
      ],
    ),
  );
  ids.approval = await publishViaApi(
    api,
    "E2E merchant words approval",
    guarded(
      "mw_approval",
      [
        {
          id: "ask",
          type: "auto.control.approval",
          params: { title: "Refund {entity.number}?", timeoutHours: 48, approverRole: "editor" },
        },
        { id: "yes", type: "auto.action.add_tag", params: { tag: "mw-approved" } },
        {
          id: "late",
          type: "auto.action.add_note",
          params: { body: "Nobody decided on {entity.number} ({entity.total | money})" },
        },
      ],
      [
        ["guard", "ask", "true"],
        ["ask", "yes", "approved"],
        ["ask", "late", "timed_out"],
      ],
    ),
  );
  ids.later = await publishViaApi(
    api,
    "E2E merchant words later",
    guarded(
      "mw_later",
      [
        {
          id: "ask",
          type: "auto.action.later",
          params: { when: "3d", step: "check-in", key: "{entity.number}", then: {} },
        },
        { id: "back", type: "auto.trigger.later", params: { step: "check-in" } },
        { id: "task", type: "auto.action.create_task", params: { title: "Call about {event.then.what}" } },
      ],
      [
        ["guard", "ask", "true"],
        ["back", "task"],
      ],
    ),
  );

  await putOrder(api, "mw_ok", CUSTOMER);
  await putOrder(api, "mw_fail", "mw_fail", false);
  await putOrder(api, "mw_partial", "mw_partial", false);
  await putOrder(api, "mw_wait", "mw_wait");
  await putOrder(api, "mw_cancel", "mw_wait");
  await putOrder(api, "mw_approval", "mw_approval");
  await putOrder(api, "mw_later", "mw_later");

  runs.succeeded = (await runsOf(api, ids.succeed, "mw_ok", "succeeded")).id;
  runs.failed = (await runsOf(api, ids.fail, "mw_fail", "failed")).id;
  runs.partial = (await runsOf(api, ids.partial, "mw_partial", "partial")).id;
  runs.waiting = (await pendingWait(api, "mw_wait", "delay")).runId;
  runs.approval = (await pendingWait(api, "mw_approval", "approval")).runId;
  const doomed = await pendingWait(api, "mw_cancel", "delay");
  const cancelled = await api.post(`/api/v1/waits/${doomed.id}/cancel`);
  expect(cancelled.ok(), await cancelled.text()).toBe(true);
  runs.cancelled = doomed.runId;
  // The later step comes due now: its run is the later trigger's.
  runs.laterAsker = (await runsOf(api, ids.later, "mw_later", "succeeded")).id;
  const asker = await api.get(`/api/v1/runs/${runs.laterAsker}`);
  const later = ((await asker.json()) as { waits: WaitItem[] }).waits.find((w) => w.kind === "later")!;
  expect(later, "the later step the run asked for").toBeTruthy();
  const resumed = await api.post(`/api/v1/waits/${later.id}/resume-now`);
  expect(resumed.ok(), await resumed.text()).toBe(true);
  await expect
    .poll(
      async () => {
        const res = await api.get(`/api/v1/runs?automationId=${ids.later}&status=succeeded&limit=50`);
        const items = ((await res.json()) as { items: (RunItem & { eventType: string })[] }).items;
        const started = items.find((r) => r.eventType === "later");
        if (started) runs.later = started.id;
        return Boolean(started);
      },
      { timeout: 20_000, message: "the later step's run" },
    )
    .toBe(true);
});

test("no page of the shop shows a raw token, an internal name or an ISO time", async ({ page }) => {
  await signIn(page, "editor", { then: "/dashboard" });
  await expectClean(page, "the dashboard");
  await expectClean(page, "the automations list", "/automations");
  await expectClean(page, "the runs list", "/runs");
  await expectClean(page, "the waiting list", "/waiting");
  // Across runs, a step's tokens are described in words.
  await expect(page.getByRole("main")).toContainText("Approval: Refund [the order's number]? · 48 h");
  await expectClean(page, "the approvals inbox", "/approvals");
  await expectClean(page, "the tasks", "/tasks");
  await expectClean(page, "the orders", "/orders");
  await expectClean(page, "an order", "/orders/mw_approval");
  await expectClean(page, "the customers", "/customers");
  await expectClean(page, "a customer", `/customers/${CUSTOMER}`);
  for (const path of ["/settings", "/settings/shop", "/settings/users", "/settings/activity"])
    await expectClean(page, `the settings page ${path}`, path);
});

test("no run page shows a raw token, an internal name or an ISO time", async ({ page }) => {
  await signIn(page, "editor", { then: null });
  for (const [kind, id] of Object.entries(runs)) await expectClean(page, `the ${kind} run`, `/runs/${id}`);
  // A step's name is filled in from the run's record; the branch it took is named in words.
  await page.goto(`/runs/${runs.waiting}`);
  await expect(page.getByRole("main")).toContainText(
    "Email mw_wait@example.com: 'Your order #mw_wait is running late'",
  );
  await page.goto(`/runs/${runs.succeeded}`);
  await expect(page.getByRole("main")).toContainText(`Customer is '${CUSTOMER}'`);
});

test("no automation's runs, waiting or insights show a raw token, an internal name or an ISO time", async ({
  page,
}) => {
  await signIn(page, "editor", { then: null });
  for (const kind of ["wait", "approval", "later"]) {
    const id = ids[kind]!;
    await expectClean(page, `the ${kind} automation's runs`, `/automations/${id}/runs`);
    await expectClean(page, `the ${kind} automation's waiting`, `/automations/${id}/waiting`);
    await expectClean(page, `the ${kind} automation's insights`, `/automations/${id}/insights`);
  }
});

test("the editor, with a step selected, its versions and a dry run, speaks the merchant's words", async ({
  page,
}) => {
  await signIn(page, "editor", { then: `/automations/${ids.approval}` });
  await expectClean(page, "the approval automation's editor");
  // A selected step: its panel names fields and branches as the merchant reads them.
  await page.locator('.react-flow__node[data-id="guard"]').click();
  await expectClean(page, "the editor with the condition selected");
  await page.locator('.react-flow__node[data-id="ask"]').click();
  await expectClean(page, "the editor with the approval selected");
  await expect(page.getByText("Timed out", { exact: true }).first()).toBeVisible();

  await page.getByRole("tab", { name: "Versions" }).click();
  await expectClean(page, "the editor's versions");

  // A dry run of the waiting flow, on its order: when it would wait until, in the shop's words.
  await page.goto(`/automations/${ids.wait}`);
  await page.getByRole("tab", { name: "Dry run" }).click();
  const panel = page.getByRole("tabpanel");
  await panel.getByRole("searchbox").fill("mw_wait");
  await panel.getByRole("radio", { name: /#mw_wait/ }).check();
  await panel.getByRole("button", { name: "Run dry run" }).click();
  await expect(panel).toContainText("Would wait until");
  await expectClean(page, "the dry run of the waiting flow");

  // And of the approval flow: it times out, and says where it goes in words.
  await page.goto(`/automations/${ids.approval}`);
  await page.getByRole("tab", { name: "Dry run" }).click();
  await panel.getByRole("searchbox").fill("mw_approval");
  await panel.getByRole("radio", { name: /#mw_approval/ }).check();
  await panel.getByRole("button", { name: "Run dry run" }).click();
  await expect(panel).toContainText("Would wait for a decision");
  await expectClean(page, "the dry run of the approval flow");
});

test("the outbox, an email's preview and every email's body, the approval email included", async ({
  page,
}) => {
  await signIn(page, "editor", { then: "/outbox" });
  await expectClean(page, "the outbox");
  const email = page.getByTestId("outbox-email").filter({ hasText: "Your order #mw_ok is running late" });
  await email.getByText("Your order #mw_ok is running late").click();
  // What the frame shows is its srcdoc, read from outside: the sandboxed frame runs no script,
  // so reading inside it would only log the browser's refusals.
  const shown = (await email.locator("iframe").getAttribute("srcdoc")) ?? "";
  expect(shown).toContain("Your order of €780.00 is on its way.");
  expect(leaksIn(shown), "the email's preview shows").toEqual([]);

  const res = await page.request.get("/api/v1/outbox?limit=200");
  const items = ((await res.json()) as { items: { subject: string; bodyHtml?: string; body?: string }[] })
    .items;
  const approvalEmails = items.filter((e) => e.subject.startsWith("Approval needed: Refund #mw_approval"));
  expect(approvalEmails.length, "the approval email is in the outbox").toBeGreaterThan(0);
  // When it times out, in the shop's zone as words, and where the run goes then.
  expect(approvalEmails[0]!.bodyHtml).toMatch(
    /It times out on \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+ and then follows 'Timed out'/,
  );
  for (const item of items.filter((e) => /mw_/.test(e.subject))) {
    const body = item.bodyHtml ?? item.body ?? "";
    expect(leaksIn(`${item.subject}\n${body}`), `the email '${item.subject}' shows`).toEqual([]);
  }
});
