/**
 * The stores a shop can connect, in the words Settings uses (browser-safe). Each platform posts
 * its webhooks to `/api/connect/<platform>/<token>`, signed with the webhook secret the merchant
 * copies from the platform into Tillflow.
 */

export const PLATFORMS = ["shopify", "woocommerce"] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_LABELS: Record<Platform, { label: string; secretHint: string; setup: string }> = {
  shopify: {
    label: "Shopify",
    secretHint:
      "In the Shopify admin: Settings → Notifications → Webhooks. The secret is shown under the list of webhooks (“Your webhooks will be signed with …”).",
    setup:
      "In the Shopify admin, open Settings → Notifications → Webhooks and create a webhook (format JSON) for each topic you want — Order creation, Order payment, Order fulfillment, Order cancellation, Order update, Customer creation, Cart/checkout creation, Refund create, Fulfillment creation, Product update, Inventory level update — each with this URL.",
  },
  woocommerce: {
    label: "WooCommerce",
    secretHint: "The Secret you type into each WooCommerce webhook; use the same one for all of them.",
    setup:
      "In WordPress, open WooCommerce → Settings → Advanced → Webhooks and add a webhook (API version WP REST API v3) for each topic you want — Order created, Order updated, Customer created, Customer updated, Product created, Product updated — with this URL as the Delivery URL and the same Secret.",
  },
};

/** What a delivery came to, in the list's words. `received`: not processed yet. */
export const DELIVERY_RESULTS = ["received", "applied", "duplicate", "stale", "refused"] as const;
export type DeliveryResultName = (typeof DELIVERY_RESULTS)[number];

export const DELIVERY_RESULT_LABELS: Record<DeliveryResultName, string> = {
  received: "Received",
  applied: "Applied",
  duplicate: "Duplicate",
  stale: "Out of date",
  refused: "Refused",
};

/** The path of a connection's URL; the origin is the app's own. */
export function connectionPath(platform: Platform, token: string): string {
  return `/api/connect/${platform}/${token}`;
}
