import type { NodeDefinition } from "@/lib/automations/nodes/types";

/**
 * A new step's default params with the shop's zone in place of the one its definition guessed,
 * for the steps whose params hold a time zone the merchant reads times in (`timeZoneParam`): a
 * New York browser editing a Paris shop means 09:00 in Paris. Pure.
 */
export function withShopTimeZone(
  definition: Pick<NodeDefinition, "timeZoneParam">,
  params: Record<string, unknown>,
  shopTimeZone: string | undefined,
): Record<string, unknown> {
  const param = definition.timeZoneParam;
  return param && shopTimeZone ? { ...params, [param]: shopTimeZone } : params;
}
