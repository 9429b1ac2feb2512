import { test as base, expect, type APIRequestContext, type Cookie, type Page } from "@playwright/test";

/** The demo shop's password (lib/seed/demo.ts); kept here so the tests never import server code. */
export const DEMO_PASSWORD = "tillflow-demo";

export type DemoRole = "admin" | "editor" | "viewer";

/**
 * Each Playwright worker has a demo shop of its own (playwright.config.ts seeds one per worker,
 * lib/seed/demo.ts `demoShop`): worker 0 the "demo" shop (admin@demo.test, …), worker n-1 the
 * "demo-n" shop (admin@demo-n.test, …). A spec reads and changes only its worker's shop, so specs on
 * two workers never see each other's automations, runs, settings or brake.
 */
const SHOP = Number(process.env.TEST_PARALLEL_INDEX ?? "0") + 1;
const DOMAIN = SHOP === 1 ? "demo.test" : `demo-${SHOP}.test`;

export const DEMO_USERS: Record<DemoRole, { email: string; label: string }> = {
  admin: { email: `admin@${DOMAIN}`, label: "Admin" },
  editor: { email: `editor@${DOMAIN}`, label: "Editor" },
  viewer: { email: `viewer@${DOMAIN}`, label: "Viewer" },
};

/** `text` as a regular expression that matches it literally (an email inside a pattern). */
export function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** An email at the worker's demo shop's domain (`locked-out` → `locked-out@demo.test`). */
export function demoEmail(name: string): string {
  return `${name}@${DOMAIN}`;
}

export interface ConsoleGuard {
  /** Console errors seen so far. */
  errors: string[];
  /** Tolerate errors matching `pattern` in this test (say, the browser's note about an expected 404). */
  ignore(pattern: RegExp): void;
}

/**
 * `test` with a fixture that fails the test if the page logged any console error or threw an
 * uncaught exception, checked after the test body so the failure names every message.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }, { messagesSendAtOnce: void }>({
  // The worker's shop sends marketing messages at once, whatever the hour and however many: quiet
  // hours (21:00–08:00 by default) and the shop's cap (one per 16 hours) would hold the specs'
  // emails at night, or a second one to a demo customer. e2e/quiet-hours.spec.ts turns them on.
  messagesSendAtOnce: [
    async ({ playwright }, use, workerInfo) => {
      const { baseURL, extraHTTPHeaders } = workerInfo.project.use;
      const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
      const signedIn = await request.post("/api/auth/sign-in/email", {
        data: { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD },
      });
      expect(signedIn.status(), await signedIn.text()).toBe(200);
      const off = await request.put("/api/v1/shop/messaging", { data: { quietHours: null, cap: null } });
      expect(off.status(), await off.text()).toBe(200);
      await request.dispose();
      await use();
    },
    { scope: "worker", auto: true },
  ],
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = [];
      // An email preview is a sandboxed frame without scripts: Chromium says so when the email holds
      // one (a record another spec wrote to check escaping) or when Playwright probes into the frame.
      // That refusal is what we want, on any page with a preview.
      const ignored: RegExp[] = [/^Blocked script execution in 'about:srcdoc'/];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(`Uncaught: ${error.message}`));
      await use({ errors, ignore: (pattern) => ignored.push(pattern) });
      const unexpected = errors.filter((text) => !ignored.some((pattern) => pattern.test(text)));
      expect(unexpected, "the page logged console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Signs in as a demo user (or any email) and opens `then` (default "/automations", where the specs
 * written before the Dashboard start; `null`: the Dashboard, the app's home), checking the shell
 * names who is signed in. The session comes from the sign-in endpoint the form posts to, in one
 * request; `form: true` fills in the form itself and lands on the Dashboard as a person does
 * (auth.spec.ts), which costs two more page loads per spec.
 */
export async function signIn(
  page: Page,
  role: DemoRole | { email: string; password: string },
  { then = "/automations", form = false }: { then?: string | null; form?: boolean } = {},
): Promise<void> {
  const { email, password } =
    typeof role === "string" ? { email: DEMO_USERS[role].email, password: DEMO_PASSWORD } : role;
  if (form) {
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/dashboard");
    await expect(page.getByTestId("signed-in-email")).toHaveText(email);
    if (then) await page.goto(then);
    return;
  }
  const saved = sessions.get(email);
  if (saved) {
    await page.context().addCookies(saved);
  } else {
    // The page's request context shares the browser's cookies: the session cookie lands there.
    const reply = await page.request.post("/api/auth/sign-in/email", { data: { email, password } });
    expect(reply.status(), await reply.text()).toBe(200);
    sessions.set(email, (await page.context().storageState()).cookies);
  }
  await page.goto(then ?? "/dashboard");
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);
}

/**
 * Each person's session, signed in once per worker and reused by the next tests (as Playwright's
 * `storageState` would, in memory): a sign-in checks a password hash, the slowest request a test
 * makes. Signing out ends the session on the server, so it forgets them all.
 */
const sessions = new Map<string, Cookie[]>();

export async function signOut(page: Page): Promise<void> {
  sessions.clear();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/sign-in");
}

/** Creates an automation through the API, with the signed-in session, and publishes it; its id. */
export async function publishViaApi(
  request: APIRequestContext,
  name: string,
  graph: unknown,
): Promise<string> {
  const created = await request.post("/api/v1/automations", { data: { name, graph } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const published = await request.post(`/api/v1/automations/${id}/publish`, { data: { note: "e2e" } });
  expect(published.status(), await published.text()).toBe(200);
  return id;
}

/**
 * "Start blank" from /automations/new: it asks for a name first (nothing is stored until one is
 * given), then opens the new draft in the editor. The draft's id.
 */
export async function startBlank(page: Page, name = "E2E blank flow"): Promise<string> {
  await page.getByRole("button", { name: "Start blank" }).click();
  await page.getByRole("dialog", { name: "Name your automation" }).getByLabel("Name").fill(name);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop() ?? "";
}

/**
 * After the calling spec file's tests, puts the shop back as they found it: every automation in
 * `ids` (filled in as the tests create them) has its waits cancelled and is archived. Specs run one
 * after another on their worker's shop, in name order; a later one counts pending approvals and waiting runs,
 * and creates orders that an automation left on would run for.
 */
export function putAwayAfterAll(published: string[] | (() => string[])): void {
  test.afterAll(async ({ browser }, testInfo) => {
    const ids = typeof published === "function" ? published() : published;
    if (ids.length === 0) return;
    const { baseURL, extraHTTPHeaders } = testInfo.project.use;
    const context = await browser.newContext({ baseURL, extraHTTPHeaders });
    const page = await context.newPage();
    await signIn(page, "editor", { then: null });
    for (const id of ids) {
      const cancelled = await page.request.post(`/api/v1/automations/${id}/waiting/cancel-all`);
      expect(cancelled.ok(), await cancelled.text()).toBe(true);
      const archived = await page.request.delete(`/api/v1/automations/${id}`);
      expect(archived.ok(), await archived.text()).toBe(true);
    }
    await context.close();
  });
}
