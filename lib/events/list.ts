import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema";

export interface EntityEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The events recorded for one entity of one shop, newest first (an order's history page).
 * `limit` is clamped to 1..200 (default 50); the events_entity_idx index serves the query.
 */
export async function listEntityEvents(
  tenantId: string,
  domain: string,
  entityId: string,
  limit = 50,
): Promise<EntityEvent[]> {
  const take = Math.min(Math.max(Math.trunc(limit) || 50, 1), 200);
  return getDb()
    .select({ id: events.id, type: events.type, payload: events.payload, createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.domain, domain), eq(events.entityId, entityId)))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(take);
}
