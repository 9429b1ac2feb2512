import { clientAddress } from "@/lib/net/client-address";
import { log } from "@/lib/log/logger";
import { admitUnsubscribeRequest, unsubscribeByLink, unsubscribeTarget } from "@/lib/consent/unsubscribe";
import { confirmPage, donePage, notFoundPage, slowDownPage, unavailablePage } from "@/lib/consent/page";

/**
 * A marketing email's unsubscribe link (lib/consent), public: the signed token is the key.
 * - GET shows a page with one button and changes nothing (mail scanners follow links).
 * - POST unsubscribes at once: the page's button, and RFC 8058's one-click POST
 *   (`List-Unsubscribe=One-Click`) that a mail client sends to the `List-Unsubscribe` address.
 * A token that is not ours, names another shop, or a customer since deleted: 404. Never a 500:
 * garbage is a 404, too many requests from one address a 429, and a failure of ours a 503.
 */
export const dynamic = "force-dynamic";

function html(body: string, status: number, extra: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      ...extra,
    },
  });
}

async function answer(
  req: Request,
  context: { params: Promise<{ token: string }> },
  act: (token: string) => Promise<Response>,
): Promise<Response> {
  try {
    const decision = await admitUnsubscribeRequest(clientAddress(req.headers));
    if (!decision.allowed)
      return html(slowDownPage(decision.retryAfterSeconds), 429, {
        "retry-after": String(decision.retryAfterSeconds),
      });
    const { token } = await context.params;
    return await act(token);
  } catch (error) {
    log().error({ err: error }, "The unsubscribe page failed.");
    return html(unavailablePage(), 503, { "retry-after": "30" });
  }
}

export function GET(req: Request, context: { params: Promise<{ token: string }> }) {
  return answer(req, context, async (token) => {
    const target = await unsubscribeTarget(token);
    if (!target) return html(notFoundPage(), 404);
    return html(confirmPage(target.shopName, target.unsubscribedAt !== null), 200);
  });
}

export function POST(req: Request, context: { params: Promise<{ token: string }> }) {
  return answer(req, context, async (token) => {
    const target = await unsubscribeTarget(token);
    if (!target) return html(notFoundPage(), 404);
    const outcome = await unsubscribeByLink(token);
    if (!outcome) return html(notFoundPage(), 404);
    return html(donePage(target.shopName), 200);
  });
}
