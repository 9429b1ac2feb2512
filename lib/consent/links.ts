import "server-only";
import { config } from "@/lib/config/config";
import { unsubscribePath, unsubscribeToken } from "./token";

/**
 * What a marketing email carries to let its customer out (RFC 8058): a link in the footer and the
 * `List-Unsubscribe` / `List-Unsubscribe-Post` headers, all to the same one-click address.
 */

/** The app's public address, as sign-in emails use it: BETTER_AUTH_URL, else this machine at PORT. */
function appUrl(): string {
  const { BETTER_AUTH_URL, PORT } = config();
  return (BETTER_AUTH_URL ?? `http://localhost:${PORT}`).replace(/\/$/, "");
}

export function unsubscribeUrl(tenantId: string, customerId: string): string {
  return appUrl() + unsubscribePath(unsubscribeToken(tenantId, customerId));
}

export function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** The footer's HTML (the URL is ours: base64url and a uuid, nothing to escape but `&`, which it has none of). */
export function unsubscribeFooter(url: string): string {
  return (
    `\n<hr>\n<p style="font-size:12px;color:#52525b">You get this email because you accept marketing ` +
    `emails from us. <a href="${url}" target="_blank">Unsubscribe</a> with one click.</p>`
  );
}
