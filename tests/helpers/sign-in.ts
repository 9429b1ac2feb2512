import type { Browser } from "@playwright/test";

/** A server the tests sign in to: the production web server or the whole app. */
interface Server {
  baseUrl: string;
}

/** better-auth's sign-in endpoint, as a script or another client calls it: a fresh session each time. */
export function signInOverHttp(server: Server, email: string, password: string): Promise<Response> {
  return fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email, password }),
  });
}

/**
 * Signs in with the sign-in page's form in a fresh browser context (no cookies), as a person does.
 * Resolves once the admin's dashboard shows; with `expectError`, returns the error the form shows.
 */
export async function signInWithTheForm(
  browser: Browser,
  server: Server,
  email: string,
  password: string,
  { expectError = false } = {},
): Promise<string | null> {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  try {
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // The form's notice; Next.js's route announcer is an empty alert of its own.
    const notice = page.getByRole("alert").filter({ hasText: /\S/ });
    if (expectError) return (await notice.textContent({ timeout: 15_000 }))?.trim() ?? null;
    await page.waitForURL("**/dashboard", { timeout: 15_000 });
    return null;
  } finally {
    await context.close();
  }
}
