/**
 * The public unsubscribe pages as HTML, rendered by the route itself: a customer's mail client
 * opens them with no session, no script and no app shell. Each is one heading, a sentence and at
 * most one button (a GET only shows it: mail scanners follow links, and must change nothing).
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #fafafa; color: #18181b; margin: 0; }
  main { max-width: 32rem; margin: 4rem auto; padding: 2rem; background: #fff; border: 1px solid #e4e4e7; border-radius: 0.75rem; }
  h1 { font-size: 1.375rem; margin: 0 0 0.75rem; }
  p { line-height: 1.5; color: #3f3f46; }
  button { font: inherit; font-weight: 600; color: #fff; background: #18181b; border: 0; border-radius: 0.5rem; padding: 0.625rem 1.25rem; cursor: pointer; }
  button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** GET: one button, which posts to the same address. */
export function confirmPage(shopName: string, alreadyOut: boolean): string {
  const shop = escapeHtml(shopName);
  return alreadyOut
    ? page(
        "You are unsubscribed",
        `<h1>You are unsubscribed</h1><p>${shop} sends you no marketing emails. Emails about your orders still come.</p>`,
      )
    : page(
        `Unsubscribe from ${shopName}`,
        `<h1>Unsubscribe from ${shop}</h1>
<p>Stop marketing emails from ${shop}? Emails about your orders (receipts, shipping) still come.</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`,
      );
}

/** POST: what the click did. */
export function donePage(shopName: string): string {
  const shop = escapeHtml(shopName);
  return page(
    "You are unsubscribed",
    `<h1>You are unsubscribed</h1><p>${shop} will send you no more marketing emails. Emails about your orders still come.</p>`,
  );
}

export function notFoundPage(): string {
  return page(
    "Link not found",
    "<h1>This unsubscribe link is not valid</h1><p>It may be mistyped or cut short. Open the link in the email again.</p>",
  );
}

export function slowDownPage(seconds: number): string {
  return page(
    "Too many requests",
    `<h1>Too many requests</h1><p>Please try again in ${seconds} seconds.</p>`,
  );
}

export function unavailablePage(): string {
  return page(
    "Try again shortly",
    "<h1>We could not do that just now</h1><p>Please try the link again in a minute.</p>",
  );
}
