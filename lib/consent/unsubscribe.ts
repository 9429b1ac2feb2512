import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { consume, type RateDecision } from "@/lib/rate-limit";
import { addressGroup } from "@/lib/net/client-address";
import { readUnsubscribeToken } from "./token";
import { unsubscribe } from "./store";

/**
 * The public unsubscribe page's work (`app/unsubscribe/[token]/route.ts`): no sign-in, the token
 * is the only key. Anything that is not a token we signed for a customer the shop still has is
 * "not found", told apart from nothing else, so the route cannot be used to learn which shops or
 * customers exist.
 */

export interface UnsubscribeTarget {
  tenantId: string;
  customerId: string;
  shopName: string;
  /** When they unsubscribed already (null: still subscribed). */
  unsubscribedAt: Date | null;
}

/** Requests per minute from one address (an IPv6 /64): generous for people, tight for a scan. */
export const UNSUBSCRIBE_RATE = { max: 30, windowSeconds: 60 };

export function admitUnsubscribeRequest(address: string): Promise<RateDecision> {
  return consume(`unsubscribe:${addressGroup(address)}`, UNSUBSCRIBE_RATE);
}

/** The shop and customer a token names, or null (forged, another shop's, a customer since deleted). */
export async function unsubscribeTarget(token: string): Promise<UnsubscribeTarget | null> {
  const named = readUnsubscribeToken(token);
  if (!named) return null;
  const [row] = await executePrepared<{ shop_name: string; unsubscribed_at: string | null }>(
    sql`select t.name as shop_name, c.unsubscribed_at
      from entities e
      join tenants t on t.id = e.tenant_id
      left join customer_consent c on c.tenant_id = e.tenant_id and c.customer_id = e.id
      where e.tenant_id = ${named.tenantId}::uuid and e.domain = 'customer' and e.id = ${named.customerId}`,
  );
  if (!row) return null;
  return {
    ...named,
    shopName: row.shop_name,
    unsubscribedAt: row.unsubscribed_at ? new Date(row.unsubscribed_at) : null,
  };
}

/**
 * One-click unsubscribe (RFC 8058): the customer is unsubscribed at once, and the record's
 * `acceptsMarketing` set false, in one transaction. "already" when they were: nothing changes.
 */
export async function unsubscribeByLink(token: string): Promise<"done" | "already" | null> {
  const target = await unsubscribeTarget(token);
  if (!target) return null;
  return getDb().transaction(async (tx) => {
    const changed = await unsubscribe(tx, target.tenantId, target.customerId, "link");
    if (changed)
      await executePrepared(
        sql`update entities set data = jsonb_set(data, '{acceptsMarketing}', 'false'::jsonb), updated_at = now()
          where tenant_id = ${target.tenantId}::uuid and domain = 'customer' and id = ${target.customerId}`,
        tx,
      );
    return changed ? "done" : "already";
  });
}
