import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";
import { runJobsSql } from "./insert";

/**
 * Releases the held runs of `tenantId` that `where` picks (runs/held.ts): each moves from `held`
 * to `queued` — it starts exactly once, as if just triggered, on the version it was held on —
 * with who released it, and gets its first-leg job, in one statement in the caller's transaction.
 * Returns the runs released.
 *
 * Not capped again: a cap already held it, and releasing it is a person's deliberate "yes, this
 * one too" (caps/decide.ts). From now on it counts toward its automation's caps like a run that
 * started (`released_at`). A held run never had a job, so its key is free (runJobsSql).
 */
export async function releaseHeldRuns(
  tx: Tx,
  tenantId: string,
  releasedBy: string,
  where: SQL,
): Promise<{ id: string; automationId: string }[]> {
  const [result] = await tx.execute<{ released: { id: string; automationId: string }[] }>(sql`
    with released as (
      update ${automationRuns} set status = 'queued', released_at = now(), released_by = ${releasedBy}, updated_at = now()
      where ${automationRuns.tenantId} = ${tenantId} and ${automationRuns.status} = 'held' and ${where}
      returning id, automation_id
    ),
    ${runJobsSql("jobs", tenantId, sql`select id from released`)}
    select coalesce((select json_agg(json_build_object('id', id, 'automationId', automation_id)) from released), '[]') as released,
           (select count(*) from jobs) as jobs`);
  return result?.released ?? [];
}
