import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";

/**
 * Who started a run — the person (or API key) whose action it was — as the audit log names them
 * (`actorLabel`: a user's email, or "API key tf_ab…"); null when no person did (a trigger's event,
 * a schedule's tick, a store's webhook).
 *
 * A run keeps no actor of its own; the actions that start runs on a person's word are audited in
 * the same transaction as the runs (or the fire) they start, so the audit log is the record:
 *
 * - Run now (`automation.run_now`, the fire's id; the schedule's runs carry it as `payload.fireId`);
 * - a re-run (`run.rerun`'s `newRunId`, `runs.rerun`'s `runIds`);
 * - Run on this record (`automation.run_on_record`'s `runId`).
 *
 * The search is bounded to the day before the run was created (audit rows are written first or in
 * the same transaction), so it reads a slice of the shop's audit index, not all of it.
 */
export async function runStarter(
  db: DbOrTx,
  tenantId: string,
  run: { id: string; createdAt: Date; fireId: string | null },
): Promise<string | null> {
  const createdAt = run.createdAt.toISOString();
  const rows = await db.execute<{ actor: string }>(sql`
    select actor from audit_events
    where tenant_id = ${tenantId}
      and created_at <= ${createdAt}::timestamptz + interval '1 second'
      and created_at >= ${createdAt}::timestamptz - interval '1 day'
      and (
        (action = 'run.rerun' and detail->>'newRunId' = ${run.id})
        or (action = 'runs.rerun' and detail->'runIds' @> jsonb_build_array(${run.id}::text))
        or (action = 'automation.run_on_record' and detail->>'runId' = ${run.id})
        or (action = 'automation.run_now' and detail->>'fireId' = ${run.fireId ?? ""})
      )
    order by created_at desc
    limit 1`);
  return rows[0]?.actor ?? null;
}
