import { and, eq, sql } from "drizzle-orm";
import { type DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
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
  return toRunEntity(event.domain, event.entityId, row, event, options);
}

/** A stored row as a run sees it: its fields plus `id` and `tags`, status pinned when asked. */
function toRunEntity(
  domain: Domain,
  id: string,
  row: { data: Record<string, unknown>; tags: string[] },
  event: RunEvent,
  options: { pinStatus: boolean },
): RunEntity {
  const data: Record<string, unknown> = { ...row.data, id, tags: row.tags };
  if (options.pinStatus && event.entityStatus) data.status = event.entityStatus;
  return { domain, id, data };
}

/**
 * The entities of many runs in one query (the batched paths), keyed by run id; a run whose
 * record is gone, or that has none, is simply absent. Same pinning rule as `loadRunEntity`.
 */
export async function loadRunEntities(
  runs: { id: string; tenantId: string; event: RunEvent }[],
  options: { pinStatus: boolean },
): Promise<Map<string, RunEntity>> {
  const keys = runs
    .filter((r) => isDomain(r.event.domain) && r.event.entityId)
    .map((r) => ({ t: r.tenantId, d: r.event.domain, e: r.event.entityId }));
  const found = new Map<string, { data: Record<string, unknown>; tags: string[] }>();
  if (keys.length > 0) {
    const rows = await executePrepared<{
      tenant_id: string;
      domain: string;
      id: string;
      data: Record<string, unknown>;
      tags: string[];
    }>(sql`
      select e.tenant_id, e.domain, e.id, e.data, e.tags
      from (select distinct t, d, e from json_to_recordset(${JSON.stringify(keys)}::json) as v(t uuid, d text, e text)) v
      join ${entities} e on e.tenant_id = v.t and e.domain = v.d and e.id = v.e`);
    for (const row of rows)
      found.set(`${row.tenant_id}|${row.domain}|${row.id}`, { data: row.data, tags: row.tags });
  }
  const byRun = new Map<string, RunEntity>();
  for (const run of runs) {
    const { domain, entityId } = run.event;
    if (!isDomain(domain) || !entityId) continue;
    const row = found.get(`${run.tenantId}|${domain}|${entityId}`);
    if (row) byRun.set(run.id, toRunEntity(domain, entityId, row, run.event, options));
  }
  return byRun;
}
