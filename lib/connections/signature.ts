import crypto from "node:crypto";
import type { Platform } from "./platforms";

/**
 * How each platform signs and names its webhooks. Both sign the raw body the same way: the
 * base64 HMAC-SHA256 of its bytes with the webhook secret (Shopify in `X-Shopify-Hmac-Sha256`,
 * WooCommerce in `X-WC-Webhook-Signature`). The delivery's id is what a platform keeps when it
 * sends the same delivery again: duplicates are dropped by it.
 */
export const PLATFORM_HEADERS: Record<Platform, { signature: string; topic: string; deliveryIds: string[] }> =
  {
    shopify: {
      signature: "X-Shopify-Hmac-Sha256",
      topic: "X-Shopify-Topic",
      deliveryIds: ["X-Shopify-Event-Id", "X-Shopify-Webhook-Id"],
    },
    woocommerce: {
      signature: "X-WC-Webhook-Signature",
      topic: "X-WC-Webhook-Topic",
      deliveryIds: ["X-WC-Webhook-Delivery-ID"],
    },
  };

/** The platform's signature of a body, as its header carries it. */
export function signDelivery(secret: string, rawBody: Buffer | string): string {
  return crypto.createHmac("sha256", secret).update(rawBody).digest("base64");
}

/** True when `header` is the body's signature with `secret` (compared in constant time). */
export function signatureMatches(secret: string, rawBody: Buffer, header: string | null): boolean {
  if (!header) return false;
  const expected = Buffer.from(signDelivery(secret, rawBody));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
