import type { Mapped } from "./mapped";
import type { Platform } from "./platforms";
import { mapShopify } from "./shopify";
import { mapWooCommerce } from "./woocommerce";

const MAPPERS: Record<Platform, (topic: string, body: unknown) => Mapped> = {
  shopify: mapShopify,
  woocommerce: mapWooCommerce,
};

/** A delivery's body as its platform's webhook of `topic`: the record it tells of, or why not. */
export function mapDelivery(platform: Platform, topic: string, body: unknown): Mapped {
  return MAPPERS[platform](topic, body);
}
