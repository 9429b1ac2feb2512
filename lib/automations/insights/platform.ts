import { sql, type SQL } from "drizzle-orm";

/**
 * Whose automations a list or a count covers: `mine` (the merchant's own), `builtin` (the
 * platform's own periodic jobs, marked by `automations.builtin_slug`), or `all`.
 */
export const PLATFORMS = ["mine", "builtin", "all"] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * The condition "this run's (or wait's) automation is (not) a built-in", or undefined for `all`.
 * The shop's built-ins are a handful of rows found by the tenant's automations index; `NOT IN` over
 * that hashed list filters a runs index scan in its order, so keyset pages stay one range scan
 * with a limit (no anti-join, no sort).
 */
export function platformCondition(tenantId: string, automationId: SQL, which: Platform): SQL | undefined {
  if (which === "all") return undefined;
  const builtins = sql`(select b.id from automations b where b.tenant_id = ${tenantId}::uuid and b.builtin_slug is not null)`;
  return which === "mine" ? sql`${automationId} not in ${builtins}` : sql`${automationId} in ${builtins}`;
}
