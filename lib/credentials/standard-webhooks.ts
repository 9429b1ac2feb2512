import { Webhook } from "standardwebhooks";

/** The headers a Standard Webhooks receiver reads (https://www.standardwebhooks.com). */
export const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/**
 * The Standard Webhooks headers for one request: `webhook-signature` is `v1,<base64 HMAC-SHA256>`
 * of `<id>.<unix seconds>.<body>` under the secret, so the body must be the exact text sent (the
 * empty string when there is none). `id` names the delivery, and stays the same when it is sent
 * again, so a receiver can drop a repeat by it.
 */
export function signatureHeaders(
  secret: string,
  id: string,
  body: string,
  at: Date,
): Record<(typeof SIGNATURE_HEADERS)[number], string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}
