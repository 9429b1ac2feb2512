import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type DbOrTx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { entities, tenants, type RunEvent } from "@/lib/db/schema";
import { DOMAIN_LABELS, isDomain, type Domain } from "@/lib/domains/domains";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { CUSTOMER_REFERENCE, DOMAINS_WITH_CUSTOMER } from "@/lib/domains/related";

export class EntityNotFoundError extends Error {
  constructor(domain: Domain, id: string) {
    super(`The ${DOMAIN_LABELS[domain].one} '${id}' no longer exists.`);
    this.name = "EntityNotFoundError";
  }
}

interface StoredRecord {
  data: Record<string, unknown>;
  tags: string[];
}

interface StoredRow extends StoredRecord {
  customer: (StoredRecord & { id: string }) | null;
}

/**
 * `domain in ('order')`: the domains whose records bring their customer (by `customerId`, the
 * only reference `CUSTOMER_REFERENCE` allows), as constant SQL text.
 */
const bringsCustomerSql = (column: unknown) =>
  sql`${column} in (${sql.raw(DOMAINS_WITH_CUSTOMER.map((d) => `'${d}'`).join(", ") || "null")})`;

/**
 * Loads the run's entity fresh. With `pinStatus`, `status` is overridden by the status the event
 * fired for (first leg: a backlogged status-change run evaluates the transition it fired for);
 * a resumed leg passes no pin and sees the record as it is now. An order comes with its customer,
 * in the same query. Entityless domains (webhook, schedule without audience, later) return null.
 */
export async function loadRunEntity(
  tx: DbOrTx,
  tenantId: string,
  event: RunEvent,
  options: { pinStatus: boolean },
): Promise<RunEntity | null> {
  if (!isDomain(event.domain) || !event.entityId) return null;
  const customers = alias(entities, "customer");
  const [row] = await tx
    .select({
      data: entities.data,
      tags: entities.tags,
      customerId: customers.id,
      customerData: customers.data,
      customerTags: customers.tags,
    })
    .from(entities)
    .leftJoin(
      customers,
      and(
        bringsCustomerSql(entities.domain),
        eq(customers.tenantId, entities.tenantId),
        eq(customers.domain, "customer"),
        eq(customers.id, sql<string>`${entities.data}->>'customerId'`),
      ),
    )
    .where(
      and(
        eq(entities.tenantId, tenantId),
        eq(entities.domain, event.domain),
        eq(entities.id, event.entityId),
      ),
    );
  if (!row) throw new EntityNotFoundError(event.domain, event.entityId);
  const customer =
    row.customerId !== null && row.customerData !== null
      ? { id: row.customerId, data: row.customerData, tags: row.customerTags ?? [] }
      : null;
  return toRunEntity(
    event.domain,
    event.entityId,
    { data: row.data, tags: row.tags, customer },
    event,
    options,
  );
}

/** A stored row as a run sees it: its fields plus `id` and `tags`, status pinned when asked. */
function toRunEntity(
  domain: Domain,
  id: string,
  row: StoredRow,
  event: RunEvent,
  options: { pinStatus: boolean },
): RunEntity {
  const data: Record<string, unknown> = { ...row.data, id, tags: row.tags };
  const entity: RunEntity = { domain, id, data };
  if (Object.hasOwn(CUSTOMER_REFERENCE, domain)) {
    entity.customer = row.customer
      ? { ...row.customer.data, id: row.customer.id, tags: row.customer.tags }
      : null;
  }
  return options.pinStatus ? pinnedRecord(entity, event) : entity;
}

/**
 * The record as a run's first leg sees it: `status` set to the status its event fired for (a
 * copy; the record as it is now, which a resumed leg sees, is left as it is).
 */
export function pinnedRecord(entity: RunEntity, event: RunEvent): RunEntity {
  return event.entityStatus ? { ...entity, data: { ...entity.data, status: event.entityStatus } } : entity;
}

/** What the legs of a batch read besides their graph: each run's record and each shop's time zone. */
export interface RunRecords {
  /** By run id; a run whose record is gone, or that has none, is absent. */
  entities: Map<string, RunEntity>;
  /** By tenant id: the shop's IANA time zone, for `{… | date}`. */
  timeZones: Map<string, string>;
}

/**
 * The entities of many runs (an order with its customer) and their shops' time zones, in one
 * query (the batched paths). Same pinning rule as `loadRunEntity`.
 */
export async function loadRunRecords(
  runs: { id: string; tenantId: string; event: RunEvent }[],
  options: { pinStatus: boolean },
): Promise<RunRecords> {
  const records: RunRecords = { entities: new Map(), timeZones: new Map() };
  if (runs.length === 0) return records;
  const keys = runs.map((r) => ({
    t: r.tenantId,
    d: r.event.domain,
    e: isDomain(r.event.domain) ? r.event.entityId : null,
  }));
  // The customer is found by its whole primary key (tenant from the order's row): one index probe.
  const rows = await executePrepared<{
    tenant_id: string;
    domain: string;
    id: string | null;
    timezone: string;
    data: Record<string, unknown> | null;
    tags: string[] | null;
    customer_id: string | null;
    customer_data: Record<string, unknown> | null;
    customer_tags: string[] | null;
  }>(sql`
    select v.t as tenant_id, v.d as domain, v.e as id, tn.timezone, e.data, e.tags,
      c.id as customer_id, c.data as customer_data, c.tags as customer_tags
    from (select distinct t, d, e from json_to_recordset(${JSON.stringify(keys)}::json) as v(t uuid, d text, e text)) v
    join ${tenants} tn on tn.id = v.t
    left join ${entities} e on e.tenant_id = v.t and e.domain = v.d and e.id = v.e
    left join ${entities} c on c.tenant_id = e.tenant_id and c.domain = 'customer'
      and c.id = e.data->>'customerId' and ${bringsCustomerSql(sql`e.domain`)}`);
  const found = new Map<string, StoredRow>();
  for (const row of rows) {
    records.timeZones.set(row.tenant_id, row.timezone);
    if (row.id === null || row.data === null) continue;
    found.set(`${row.tenant_id}|${row.domain}|${row.id}`, {
      data: row.data,
      tags: row.tags ?? [],
      customer:
        row.customer_id !== null && row.customer_data !== null
          ? { id: row.customer_id, data: row.customer_data, tags: row.customer_tags ?? [] }
          : null,
    });
  }
  for (const run of runs) {
    const { domain, entityId } = run.event;
    if (!isDomain(domain) || !entityId) continue;
    const row = found.get(`${run.tenantId}|${domain}|${entityId}`);
    if (row) records.entities.set(run.id, toRunEntity(domain, entityId, row, run.event, options));
  }
  return records;
}
