import { upsertEntity } from "@/lib/entities/service";
import type { TestShop } from "./shop";

/** A plain pending order's fields (#1, 10 EUR); `fields` overrides or adds to them. */
export function orderFields(fields: Record<string, unknown> = {}) {
  return { number: "#1", status: "pending", total: 10, currency: "EUR", ...fields };
}

/**
 * Writes the shop's order `id` as the entities API would (author "test"): the first write starts
 * its order_created flows, a later one the status flows. `fields` overrides the plain order's.
 */
export function placeOrder(shop: TestShop, id: string, fields: Record<string, unknown> = {}) {
  return upsertEntity(shop.tenant.id, "order", id, orderFields(fields), "test");
}
