/**
 * The node types whose params hold a time zone the merchant reads times in. A new one starts on
 * the shop's zone (its settings), never the browser's: a New York browser editing a Paris shop
 * means 09:00 in Paris. Pure.
 */
const ZONED_TYPES: ReadonlySet<string> = new Set(["auto.trigger.schedule", "auto.control.wait_until"]);

/** A new step's default params with the shop's zone in place of the one the definition guessed. */
export function withShopTimeZone(
  type: string,
  params: Record<string, unknown>,
  shopTimeZone: string | undefined,
): Record<string, unknown> {
  return ZONED_TYPES.has(type) && shopTimeZone ? { ...params, timezone: shopTimeZone } : params;
}
