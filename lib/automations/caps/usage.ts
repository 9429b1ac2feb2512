import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { AutomationCaps } from "@/lib/db/schema";
import { recordKey, type CapCandidate, type CapUsage } from "./decide";

/**
 * Locks the capped automations' starts for the rest of the transaction and counts what they
 * already started, for `decideCaps`.
 *
 * Two transactions starting runs of one capped automation at once would each count the other's
 * runs as not there and both start the last allowed one. So each capped automation's starts take
 * a transaction-scoped advisory lock (in id order, so two never wait on each other), and the counts
 * are read by a later statement: under READ COMMITTED it sees every run committed before the lock
 * was granted. Automations without caps never get here, so the hot path takes no lock.
 */
export async function lockAndCountCaps(
  tx: DbOrTx,
  tenantId: string,
  candidates: CapCandidate[],
  capsOf: (automationId: string) => AutomationCaps | null,
): Promise<CapUsage> {
  const capped = [...new Set(candidates.map((c) => c.automationId))].filter((id) => capsOf(id)).sort();
  const usage: CapUsage = { lastHour: new Map(), perRecord: new Map() };
  if (capped.length === 0) return usage;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('caps:' || id, 0)) from json_array_elements_text(${JSON.stringify(capped)}::json) as id order by id`,
  );
  const hourly = capped.filter((id) => capsOf(id)?.maxRunsPerHour !== undefined);
  const records = candidates.flatMap((c) => {
    const cap = capsOf(c.automationId)?.maxPerRecord;
    return cap && c.entityId !== null
      ? [{ automation_id: c.automationId, domain: c.domain, entity_id: c.entityId, hours: cap.hours }]
      : [];
  });
  // A run counts when it was not held, or was released (a discarded one is cancelled, still held_reason).
  const counted = sql`(r.held_reason is null or r.released_at is not null)`;
  if (hourly.length > 0) {
    // Counted up to the cap, one index range per automation: past the cap every run is held
    // whatever the exact count, and a schedule's fan-out asks again for each batch of 1,000, so
    // the count must not grow with the runs the hour already holds.
    const caps = hourly.map((id) => ({ id, max: capsOf(id)!.maxRunsPerHour! }));
    const rows = await tx.execute<{ automation_id: string; n: number }>(sql`
      select a.id as automation_id, n.n from json_to_recordset(${JSON.stringify(caps)}::json) as a(id uuid, max int)
      cross join lateral (
        select count(*)::int as n from (
          select 1 from automation_runs r
          where r.tenant_id = ${tenantId} and r.automation_id = a.id
            and r.created_at > now() - interval '1 hour' and ${counted}
          limit a.max
        ) x
      ) n`);
    for (const row of rows) usage.lastHour.set(row.automation_id, row.n);
  }
  if (records.length > 0) {
    const rows = await tx.execute<{
      automation_id: string;
      domain: string;
      entity_id: string;
      n: number;
    }>(sql`
      select k.automation_id, k.domain, k.entity_id, count(r.id)::int as n
      from (select distinct * from json_to_recordset(${JSON.stringify(records)}::json)
              as x(automation_id uuid, domain text, entity_id text, hours int)) k
      left join automation_runs r
        on r.tenant_id = ${tenantId} and r.domain = k.domain and r.entity_id = k.entity_id
       and r.automation_id = k.automation_id
       and r.created_at > now() - make_interval(hours => k.hours) and ${counted}
      group by k.automation_id, k.domain, k.entity_id`);
    for (const row of rows)
      usage.perRecord.set(recordKey(row.automation_id, row.domain, row.entity_id), row.n);
  }
  return usage;
}
