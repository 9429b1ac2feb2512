import { readBodyText } from "@/lib/api/body";
import { failureResponse, json } from "@/lib/api/route";
import { hookBodyTooLarge, receiveWebhook } from "@/lib/automations/webhooks/receive";

/**
 * Inbound webhook trigger: authenticated by the URL's token, and when the trigger has a secret by
 * `X-Tillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (lib/automations/webhooks/signature.ts).
 */
export async function POST(req: Request, context: { params: Promise<{ token: string }> }) {
  try {
    const { token } = await context.params;
    // The body is read once the token is known, as a stream refused past its limit (lib/api/body.ts).
    const readBody = (maxBytes: number) => readBodyText(req, maxBytes, hookBodyTooLarge);
    const result = await receiveWebhook(token, readBody, req.headers);
    return json(result, 202);
  } catch (error) {
    return failureResponse(error, "Unhandled error in webhook");
  }
}
