import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { entities, type RunEvent } from "@/lib/db/schema";
import { DOMAIN_LABELS, isDomain, type Domain } from "@/lib/entities/domains";

/** The record a run is about, as conditions, tokens and actions see it. */
export interface RunEntity {
  domain: Domain;
  id: string;
  /** The domain's fields plus `id` and `tags`. */
  data: Record<string, unknown>;
}

export class EntityNotFoundError extends Error {
  constructor(domain: Domain, id: string) {
    super(`The ${DOMAIN_LABELS[domain].one} '${id}' no longer exists.`);
    this.name = "EntityNotFoundError";
  }
}

/**
 * Loads the run's entity fresh. With `pinStatus`, `status` is overridden by the status the event
 * fired for (first leg: a backlogged status-change run evaluates the transition it fired for);
 * a resumed leg passes no pin and sees the record as it is now.
 * Entityless domains (webhook, schedule without audience, later) return null.
 */
export async function loadRunEntity(
  tx: DbOrTx,
  tenantId: string,
  event: RunEvent,
  options: { pinStatus: boolean },
): Promise<RunEntity | null> {
  if (!isDomain(event.domain) || !event.entityId) return null;
  const [row] = await tx
    .select({ data: entities.data, tags: entities.tags })
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, tenantId),
        eq(entities.domain, event.domain),
        eq(entities.id, event.entityId),
      ),
    );
  if (!row) throw new EntityNotFoundError(event.domain, event.entityId);
  const data: Record<string, unknown> = { ...row.data, id: event.entityId, tags: row.tags };
  if (options.pinStatus && event.entityStatus) data.status = event.entityStatus;
  return { domain: event.domain, id: event.entityId, data };
}
